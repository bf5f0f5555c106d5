// Package httpheader builds request headers the way Pi and the provider
// SDKs do: header objects merged with plain object semantics, then poured
// into a fetch Headers, where names compare without case.
package httpheader

import (
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"

	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/provider/stream"
	"github.com/piconform/piconform/reference/wtf8"
)

// Header is one member of a header object.
type Header struct {
	Name string
	// Value is nil for JSON null, which deletes the header.
	Value *string
	// Raw is a caller's value that was neither a string nor null, as
	// written; Value then holds String(Raw), which is how a fetch Headers
	// stores it. Pi's own string checks on such a value throw (HasNonBlank).
	Raw jsonv.Value
}

// New is a header with a value.
func New(name, value string) Header { return Header{Name: name, Value: &value} }

// Decode reads a caller's header object as Object.assign pours it into
// Pi's headers (spec input.lenient): a string gives its characters under
// their indices, an array its elements, anything else but an object
// nothing; a member null deletes the header, and one of another type than
// string (an array included) is kept as String() writes it, with the value
// as written in Header.Raw.
func Decode(obj jsonv.Value) []Header {
	var out []Header
	for _, m := range jsonv.Spread(obj).Members() {
		out = append(out, Member(m.Key, m.Value))
	}
	return out
}

// Member is the header name: v of a header object: null deletes, a string
// is the value, anything else is String(v), kept as written in Raw.
func Member(name string, v jsonv.Value) Header {
	h := Header{Name: name}
	switch v.Kind() {
	case jsonv.String:
		s := v.Str()
		h.Value = &s
	case jsonv.Null:
	default:
		s := v.JSString()
		h.Value, h.Raw = &s, v
	}
	return h
}

// SDKValues are the values a Stainless SDK sets for h: each element of an
// array value as a value of its own (nil for a null element, which
// deletes), none at all for an empty array, else h's one value.
func (h Header) SDKValues() []*string {
	if h.Raw.Kind() != jsonv.Array {
		return []*string{h.Stored()}
	}
	var out []*string
	for _, e := range h.Raw.Elems() {
		if e.Kind() == jsonv.Null {
			out = append(out, nil)
			continue
		}
		s := stream.ToString(e)
		out = append(out, &s)
	}
	return out
}

// Stored is h's value as a fetch Headers or an SDK stores it, nil for
// null: String() of a value of another type, which throws (a
// stream.JSError panic) where String() does.
func (h Header) Stored() *string {
	if h.Raw.ConversionThrows() {
		panic(stream.JSError{Msg: stream.NoPrimitiveText})
	}
	return h.Value
}

// JSON is the header object Decode reads.
func JSON(headers []Header) jsonv.Value {
	members := make([]jsonv.Member, len(headers))
	for i, h := range headers {
		members[i] = jsonv.Member{Key: h.Name, Value: jsonv.NullValue()}
		if !h.Raw.IsAbsent() {
			members[i].Value = h.Raw
		} else if h.Value != nil {
			members[i].Value = jsonv.StringValue(*h.Value)
		}
	}
	return jsonv.ObjectValue(members...)
}

// FromModel reads model.headers as Pi spreads them ({...model.headers}),
// as Decode reads a caller's.
func FromModel(model *ai.Model) []Header { return Decode(model.Headers) }

// Copilot are the per-request headers Pi adds for GitHub Copilot, judged
// on the context as the caller gave it.
func Copilot(ctx *ai.Context) []Header {
	var t CopilotTally
	for _, m := range ctx.Messages {
		t.See(m)
	}
	return t.Headers()
}

// CopilotTally is what Copilot's headers read of a transcript, for one
// read a message at a time: whether the last message is not a user's and
// whether a user message or a tool result holds an image.
type CopilotTally struct {
	agent, vision bool
}

// See takes the next message of the context as the caller gave it.
func (t *CopilotTally) See(m ai.Message) {
	t.agent = m.Role() != ai.RoleUser
	if t.vision {
		return
	}
	var blocks []ai.Block
	switch m := m.(type) {
	case *ai.UserMessage:
		if !m.Content.IsString {
			blocks = m.Content.Blocks
		}
	case *ai.ToolResultMessage:
		blocks = m.Content
	}
	for _, b := range blocks {
		// Pi looks at the type alone: an image whose members have
		// other types counts too.
		f, foreign := b.(*ai.ForeignBlock)
		if _, ok := b.(*ai.ImageBlock); ok || foreign && f.Type() == "image" {
			t.vision = true
			return
		}
	}
}

// SeeSystem takes a system message that leads the transcript ahead of the
// messages See takes: a message that is not a user's.
func (t *CopilotTally) SeeSystem() { t.agent = true }

// Headers are Copilot's headers for the messages seen.
func (t *CopilotTally) Headers() []Header {
	initiator := "user"
	if t.agent {
		initiator = "agent"
	}
	out := []Header{New("X-Initiator", initiator), New("Openai-Intent", "conversation-edits")}
	if t.vision {
		out = append(out, New("Copilot-Vision-Request", "true"))
	}
	return out
}

// Assign is Object.assign (or object spread) over header objects: a name
// spelled exactly as before keeps its place and takes the new value, any
// other spelling is a new key at the end. Case only matters later, in a
// Set.
func Assign(sources ...[]Header) []Header {
	var out []Header
	for _, src := range sources {
	next:
		for _, h := range src {
			for i := range out {
				if out[i].Name == h.Name {
					out[i].Value, out[i].Raw = h.Value, h.Raw
					continue next
				}
			}
			out = append(out, h)
		}
	}
	return out
}

// Merge is Pi 1.6's merge of header objects (providerHeadersToRecord): a
// name compares without case, so a later source's header replaces an
// earlier one of any spelling, moving to the end with the later spelling,
// and a null removes it. The result holds no nulls.
func Merge(sources ...[]Header) []Header {
	var out []Header
	for _, src := range sources {
		for _, h := range src {
			out = slices.DeleteFunc(out, func(o Header) bool { return strings.EqualFold(o.Name, h.Name) })
			if h.Value != nil {
				out = append(out, h)
			}
		}
	}
	return out
}

// HasNonBlank is Pi's check that the caller's headers carry one of names
// (lower case) with a value that is not blank. Pi trims each such value,
// and throws (the error) on one that is not a string.
func HasNonBlank(headers []Header, names ...string) (bool, error) {
	for _, h := range headers {
		for _, name := range names {
			if strings.ToLower(h.Name) != name || h.Value == nil {
				continue
			}
			if !h.Raw.IsAbsent() {
				return false, fmt.Errorf("%w: header %q is a %s, and Pi trims it", ErrNotAString, h.Name, h.Raw.Kind())
			}
			if !stream.IsBlank(*h.Value) {
				return true, nil
			}
		}
	}
	return false, nil
}

// ErrNotAString is Pi's TypeError for a string method called on a header
// value of another type.
var ErrNotAString = errors.New("a header value is not a string")

// CheckByteString is fetch's conversion of a header value to a ByteString:
// a UTF-16 unit above 255 fails before anything is sent. The error is
// fetch's message.
func CheckByteString(v string) error {
	for i, u := range wtf8.ToUTF16(v) {
		if u > 255 {
			return fmt.Errorf("Cannot convert argument to a ByteString because the character at index %d has a value of %d which is greater than 255.", i, u)
		}
	}
	return nil
}

// ValidName reports whether fetch takes name as a header name: an HTTP
// token, one or more of the letters, digits and !#$%&'*+-.^_`|~.
func ValidName(name string) bool {
	if name == "" {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0) {
			return false
		}
	}
	return true
}

// Set is a fetch Headers object: names compare without case, a name may
// hold several values (sent joined with ", "), and values are trimmed as
// fetch trims them. http.Header keeps no order, so none is kept here.
type Set struct {
	values  map[string][]string
	removed map[string]bool
}

// NewSet is an empty Set.
func NewSet() *Set { return &Set{values: map[string][]string{}, removed: map[string]bool{}} }

// Append is Headers.append.
func (s *Set) Append(name, value string) {
	name = strings.ToLower(name)
	s.values[name] = append(s.values[name], strings.Trim(value, " \t\r\n"))
	delete(s.removed, name)
}

// Delete is Headers.delete; Removed reports it until the name is set again.
func (s *Set) Delete(name string) {
	name = strings.ToLower(name)
	delete(s.values, name)
	s.removed[name] = true
}

// Has is Headers.has.
func (s *Set) Has(name string) bool {
	_, ok := s.values[strings.ToLower(name)]
	return ok
}

// Get is Headers.get, "" for a missing name.
func (s *Set) Get(name string) string { return strings.Join(s.values[strings.ToLower(name)], ", ") }

// Removed reports whether a null deleted name and nothing set it since.
func (s *Set) Removed(name string) bool { return s.removed[strings.ToLower(name)] }

// SetLayer is a Stainless SDK's buildHeaders step for one header object:
// each member replaces what was there (null deletes it), and an array
// value sets each of its elements in turn (SDKValues), where an empty one
// leaves the header as it was.
func (s *Set) SetLayer(layer []Header) {
	for _, h := range layer {
		for i, v := range h.SDKValues() {
			if i == 0 || v == nil {
				s.Delete(h.Name)
			}
			if v != nil {
				s.Append(h.Name, *v)
			}
		}
	}
}

// Header is the Set as Go sends it.
func (s *Set) Header() http.Header {
	h := http.Header{}
	for name, v := range s.values {
		h.Set(name, strings.Join(v, ", "))
	}
	return h
}
