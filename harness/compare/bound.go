package compare

import (
	"fmt"
	"unicode/utf8"

	"github.com/piconform/piconform/reference/jsonv"
)

// Bounds on what a Diff holds and shows, so that an answer of 16 MiB (a
// number of millions of digits, a string as long, a key as long) costs a
// report a few KiB per difference, and a run holding many such answers
// little memory: a report shows at most 20 differences of a case.
const (
	// MaxValueBytes bounds the JSON text of one side of a difference.
	MaxValueBytes = 4 << 10
	// MaxPathBytes bounds the path of a difference.
	MaxPathBytes = 1 << 10
)

// Bounded is d with each side whose JSON text is longer than MaxValueBytes
// replaced by a string holding the start of that text and "…", its whole
// length kept in WantBytes or GotBytes, and a path longer than
// MaxPathBytes cut the same way (Clip). A side already cut stays as it is.
func (d Diff) Bounded() Diff {
	d.Path = Clip(d.Path, MaxPathBytes)
	if d.WantBytes == 0 {
		d.Want, d.WantBytes = boundValue(d.Want)
	}
	if d.GotBytes == 0 {
		d.Got, d.GotBytes = boundValue(d.Got)
	}
	return d
}

// boundValue is v, or when its JSON text is longer than MaxValueBytes, the
// start of that text as a string and the text's whole length.
func boundValue(v jsonv.Value) (jsonv.Value, int) {
	if v.IsAbsent() || fits(v, MaxValueBytes) >= 0 {
		return v, 0
	}
	var h head
	h.limit = MaxValueBytes
	_ = v.WriteJSON(&h)
	if h.n <= MaxValueBytes {
		return v, 0
	}
	return jsonv.StringValue(cutUTF8(string(h.buf), MaxValueBytes) + "…"), h.n
}

// fits is what is left of room once v's JSON text is written, counting
// each byte of a string as its longest escape; negative when that may not
// fit. It looks no further than room allows, so a large value costs little.
func fits(v jsonv.Value, room int) int {
	switch v.Kind() {
	case jsonv.Null, jsonv.Bool:
		return room - len("false")
	case jsonv.Number:
		return room - len(v.Literal())
	case jsonv.String:
		return room - 6*len(v.Str()) - 2
	case jsonv.Array:
		room -= 2
		for _, e := range v.Elems() {
			if room = fits(e, room-1); room < 0 {
				return room
			}
		}
	case jsonv.Object:
		room -= 2
		for _, m := range v.Members() {
			if room -= 6*len(m.Key) + 4; room < 0 {
				return room
			}
			if room = fits(m.Value, room); room < 0 {
				return room
			}
		}
	}
	return room
}

// head keeps the first limit bytes written to it and counts them all.
type head struct {
	buf   []byte
	limit int
	n     int
}

func (h *head) Write(p []byte) (int, error) {
	if room := h.limit + utf8.UTFMax - len(h.buf); room > 0 {
		h.buf = append(h.buf, p[:min(room, len(p))]...)
	}
	h.n += len(p)
	return len(p), nil
}

// Clip is s when it has at most n bytes, else its first n bytes (never
// half a character) and "…".
func Clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return cutUTF8(s, n) + "…"
}

// cutUTF8 is the longest prefix of s of at most n bytes that does not end
// inside a character.
func cutUTF8(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// show is one side of a difference for people: its JSON text, or for a
// side cut by Bounded the start of it and how long it is.
func show(v jsonv.Value, cut int) string {
	if cut > 0 {
		return fmt.Sprintf("%s (%d bytes of JSON in all)", v.Str(), cut)
	}
	return Render(v)
}

// ShowWant is the wanted side of d for people: its JSON text, "absent",
// or for a side cut by Bounded the start of it and how long it is.
func (d Diff) ShowWant() string { return show(d.Want, d.WantBytes) }

// ShowGot is ShowWant for the side the implementation gave.
func (d Diff) ShowGot() string { return show(d.Got, d.GotBytes) }
