package provider_test

import (
	"bytes"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/provider"
)

// TestBodySinks: BodyWriter writes the bytes of BodyTree's body, whatever
// members are absent and however many elements there are.
func TestBodySinks(t *testing.T) {
	str := jsonv.StringValue
	absent := jsonv.Value{}
	big := string(bytes.Repeat([]byte("x\u2028\"\\"), 20000)) // past the writer's buffer
	tests := []struct {
		name       string
		head, tail []jsonv.Member
		elems      []jsonv.Value
		want       string
	}{
		{"empty", nil, nil, nil, `{"messages":[]}`},
		{"head and tail", []jsonv.Member{{Key: "model", Value: str("m")}}, []jsonv.Member{{Key: "stream", Value: jsonv.BoolValue(true)}},
			[]jsonv.Value{str("a"), str("b")}, `{"model":"m","messages":["a","b"],"stream":true}`},
		{"absent members", []jsonv.Member{{Key: "a", Value: absent}}, []jsonv.Member{{Key: "b", Value: absent}, {Key: "c", Value: str("\xed\xa0\x80")}},
			[]jsonv.Value{absent}, `{"messages":[null],"c":"\ud800"}`},
		{"only absent", []jsonv.Member{{Key: "a", Value: absent}}, []jsonv.Member{{Key: "b", Value: absent}}, nil, `{"messages":[]}`},
		{"large", nil, []jsonv.Member{{Key: "t", Value: str(big)}}, []jsonv.Value{str(big), str(big)}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var tree provider.BodyTree
			var buf bytes.Buffer
			w := provider.NewBodyWriter(&buf)
			for _, sink := range []provider.BodySink{&tree, w} {
				sink.Begin(tt.head, "messages")
				for _, e := range tt.elems {
					sink.Element(e)
				}
				sink.End(tt.tail)
			}
			if err := w.Flush(); err != nil {
				t.Fatal(err)
			}
			want := string(tree.Value().AppendJSON(nil))
			if tt.want != "" && want != tt.want {
				t.Errorf("BodyTree = %s, want %s", want, tt.want)
			}
			if diff := cmp.Diff(want, buf.String()); diff != "" {
				t.Errorf("BodyWriter differs from BodyTree (-tree +writer):\n%s", diff)
			}
		})
	}
}

// failWriter fails every write.
type failWriter struct{ err error }

func (f failWriter) Write([]byte) (int, error) { return 0, f.err }

// TestBodyWriterError: the first write error comes back from Flush.
func TestBodyWriterError(t *testing.T) {
	fail := errors.New("disk full")
	w := provider.NewBodyWriter(failWriter{fail})
	w.Begin(nil, "messages")
	w.Element(jsonv.StringValue("a"))
	w.End(nil)
	if err := w.Flush(); !errors.Is(err, fail) {
		t.Errorf("Flush = %v, want %v", err, fail)
	}
}

// TestSteps: Pi finishes each step over the whole transcript before the
// next, so the error that wins is the earliest step's, even when a later
// step failed on an earlier message; a reading error wins at once.
func TestSteps(t *testing.T) {
	model := &ai.Model{ID: "m", API: "a", Provider: "p", Input: []string{"text"}}
	user := func(text string) ai.Message { return &ai.UserMessage{Content: ai.Content{IsString: true, Text: text}} }
	errCheck, errPending, errConvert, errRead := errors.New("check"), errors.New("pending"), errors.New("convert"), errors.New("read")
	failOn := func(text string, err error) func(ai.Message) error {
		return func(m ai.Message) error {
			if m.(*ai.UserMessage).Content.Text == text {
				return err
			}
			return nil
		}
	}
	checkOn := func(text string) func(ai.Message, int) error {
		f := failOn(text, errCheck)
		return func(m ai.Message, _ int) error { return f(m) }
	}
	tests := []struct {
		name    string
		msgs    provider.Transcript
		convert func(ai.Message) error
		checks  []func(ai.Message, int) error
		pending error
		want    error
		closed  bool
	}{
		{"none", provider.TranscriptOf([]ai.Message{user("a"), user("b")}), failOn("", nil), nil, nil, nil, true},
		{"convert", provider.TranscriptOf([]ai.Message{user("a"), user("b")}), failOn("a", errConvert), nil, nil, errConvert, false},
		{"a later check wins", provider.TranscriptOf([]ai.Message{user("a"), user("b")}), failOn("a", errConvert),
			[]func(ai.Message, int) error{checkOn("b")}, nil, errCheck, false},
		{"pending before convert", provider.TranscriptOf([]ai.Message{user("a")}), failOn("a", errConvert), nil, errPending, errPending, false},
		{"a check before pending", provider.TranscriptOf([]ai.Message{user("a"), user("b")}), failOn("", nil),
			[]func(ai.Message, int) error{checkOn("b")}, errPending, errCheck, false},
		{"pending without messages", provider.TranscriptOf(nil), failOn("", nil), nil, errPending, errPending, false},
		{"read", func(yield func(ai.Message, error) bool) { _ = yield(user("a"), nil) && yield(nil, errRead) },
			failOn("a", errConvert), nil, nil, errRead, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			closed := false
			steps := provider.Steps{Checks: tt.checks, Pending: tt.pending, Convert: tt.convert, Close: func() error { closed = true; return nil }}
			err := steps.Run(tt.msgs, model, nil)
			if !errors.Is(err, tt.want) || (err == nil) != (tt.want == nil) {
				t.Errorf("Run = %v, want %v", err, tt.want)
			}
			if closed != tt.closed {
				t.Errorf("close called: %v, want %v", closed, tt.closed)
			}
		})
	}
}
