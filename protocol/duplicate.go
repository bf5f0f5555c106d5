package protocol

import (
	"slices"
	"strconv"

	"github.com/piconform/piconform/reference/jsonv"
)

// DuplicateKey finds the first object in v, in document order, that names a
// key twice, and reports it as a *jsonv.PathError at that object's JSON
// Pointer under ptr. A frame must name each key of an object once: JSON
// libraries differ on which of two members they keep (JSON.parse the last,
// others the first, or both), so a frame that repeats a key does not say
// one thing. Nil when every key is named once.
func DuplicateKey(v jsonv.Value, ptr string) error {
	key, path, dup := duplicate(v)
	if !dup {
		return nil
	}
	slices.Reverse(path)
	for _, seg := range path {
		ptr = jsonv.Child(ptr, seg)
	}
	return jsonv.Errorf(ptr, "the key %q is named twice in one object: each key must be named once", key)
}

// duplicate is the first repeated key in v and the path to its object,
// innermost segment first (built only on the way out of a find).
func duplicate(v jsonv.Value) (key string, path []string, dup bool) {
	switch v.Kind() {
	case jsonv.Array:
		for i, e := range v.Elems() {
			if key, path, dup = duplicate(e); dup {
				return key, append(path, strconv.Itoa(i)), true
			}
		}
	case jsonv.Object:
		ms := v.Members()
		if key, dup = repeatedKey(ms); dup {
			return key, nil, true
		}
		for _, m := range ms {
			if key, path, dup = duplicate(m.Value); dup {
				return key, append(path, m.Key), true
			}
		}
	}
	return "", nil, false
}

// repeatedKey is the first key of members that an earlier member has.
func repeatedKey(members []jsonv.Member) (string, bool) {
	if len(members) <= 8 {
		for i := 1; i < len(members); i++ {
			for j := range i {
				if members[j].Key == members[i].Key {
					return members[i].Key, true
				}
			}
		}
		return "", false
	}
	seen := make(map[string]struct{}, len(members))
	for _, m := range members {
		if _, dup := seen[m.Key]; dup {
			return m.Key, true
		}
		seen[m.Key] = struct{}{}
	}
	return "", false
}
