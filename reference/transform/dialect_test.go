package transform

import (
	"errors"
	"strings"
	"testing"

	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/dialect"
	"github.com/piconform/piconform/reference/jsonv"
)

func sys(content string) string {
	return `{"role":"system","content":` + str(content) + `,"timestamp":5}`
}

// normalizeIn runs what the normalize kind runs for dialect d: FillContent,
// decoding with d's roles, the throw check, then MessagesIn.
func normalizeIn(t *testing.T, d dialect.Dialect, model *ai.Model, in []string) (jsonv.Value, error) {
	t.Helper()
	raw, err := jsonv.Parse([]byte("[" + strings.Join(in, ",") + "]"))
	if err != nil {
		t.Fatalf("bad test JSON: %v", err)
	}
	filled, err := FillContent(d, raw, "/messages")
	if err != nil {
		return jsonv.Value{}, err
	}
	msgs, err := ai.DecodeMessagesAllowForeignIn(d, filled, "/messages")
	if err != nil {
		return jsonv.Value{}, err
	}
	if err := CheckThrowsIn(d, msgs, model, nil, "/messages"); err != nil {
		return jsonv.Value{}, err
	}
	return ai.MessagesJSON(MessagesIn(d, msgs, model, nil, clock4242)), nil
}

// TestDialects: the three differences of Pi 1.6's transformMessages, each
// with the 0.80 result beside it (both as Pi 0.80.2 and 1.6.0 gave them).
func TestDialects(t *testing.T) {
	for _, tc := range []struct {
		name     string
		model    *ai.Model // nil: target()
		in       []string
		want080  []string
		want16   []string
		throws80 bool
		throws16 bool
	}{
		{name: "system between a call and its result is held",
			in:      []string{assistant(same, "toolUse", call("t1", "f")), sys("mid"), result("t1")},
			want080: []string{assistant(same, "toolUse", call("t1", "f")), sys("mid"), result("t1")},
			want16:  []string{assistant(same, "toolUse", call("t1", "f")), result("t1"), sys("mid")}},
		{name: "held system goes after the synthetic result, before the user",
			in:      []string{assistant(same, "toolUse", call("t1", "f")), sys("a"), sys("b"), user(text("u"))},
			want080: []string{assistant(same, "toolUse", call("t1", "f")), sys("a"), sys("b"), synthetic("t1", "f"), user(text("u"))},
			want16:  []string{assistant(same, "toolUse", call("t1", "f")), synthetic("t1", "f"), sys("a"), sys("b"), user(text("u"))}},
		{name: "held system at the end",
			in:      []string{assistant(same, "toolUse", call("t1", "f")), sys("end")},
			want080: []string{assistant(same, "toolUse", call("t1", "f")), sys("end"), synthetic("t1", "f")},
			want16:  []string{assistant(same, "toolUse", call("t1", "f")), synthetic("t1", "f"), sys("end")}},
		{name: "held system let go before the next assistant",
			in:      []string{assistant(same, "toolUse", call("t1", "f")), sys("s"), result("t1"), assistant(same, "stop", text("x"))},
			want080: []string{assistant(same, "toolUse", call("t1", "f")), sys("s"), result("t1"), assistant(same, "stop", text("x"))},
			want16:  []string{assistant(same, "toolUse", call("t1", "f")), result("t1"), sys("s"), assistant(same, "stop", text("x"))}},
		{name: "system with nothing pending stays in place, images untouched", model: textOnly(),
			in:      []string{`{"role":"system","content":[` + img + `]}`, user(text("u"))},
			want080: []string{`{"role":"system","content":[` + img + `]}`, user(text("u"))},
			want16:  []string{`{"role":"system","content":[` + img + `]}`, user(text("u"))}},
		{name: "cross-model thinking dropped",
			in:      []string{assistant(other, "stop", thinking("why"), signed("s", "S"), text("T"))},
			want080: []string{assistant(other, "stop", text("why"), text("s"), text("T"))},
			want16:  []string{assistant(other, "stop", text("T"))}},
		{name: "same-model thinking as before",
			in:      []string{assistant(same, "stop", thinking("why"), thinking(" "), signed("", "S"))},
			want080: []string{assistant(same, "stop", thinking("why"), signed("", "S"))},
			want16:  []string{assistant(same, "stop", thinking("why"), signed("", "S"))}},
		{name: "cross-model thinking of another type no longer throws",
			in:       []string{assistant(other, "stop", `{"type":"thinking","thinking":5}`)},
			throws80: true,
			want16:   []string{assistant(other, "stop")}},
		{name: "same-model thinking of another type still throws",
			in:       []string{assistant(same, "stop", `{"type":"thinking","thinking":5}`)},
			throws80: true, throws16: true},
		{name: "assistant without content gets []",
			in:       []string{`{"role":"assistant","api":"api","provider":"p","model":"m","usage":` + zeroUsage + `,"stopReason":"stop"}`},
			throws80: true,
			want16:   []string{`{"role":"assistant","api":"api","provider":"p","model":"m","usage":` + zeroUsage + `,"stopReason":"stop","content":[]}`}},
		{name: "content filled for every element", model: textOnly(),
			in: []string{`{"role":"user","content":null}`, `{"role":"toolResult","toolCallId":"t","toolName":"f"}`, `{"role":"system"}`,
				`{"role":"custom"}`, `7`, `"ab"`, `[1]`, `{"content":""}`},
			throws80: true, // the text-only model iterates the tool result's absent content
			want16: []string{`{"role":"user","content":[]}`, `{"role":"toolResult","toolCallId":"t","toolName":"f","content":[]}`,
				`{"role":"system","content":[]}`, `{"role":"custom","content":[]}`, `{"content":[]}`,
				`{"0":"a","1":"b","content":[]}`, `{"0":1,"content":[]}`, `{"content":""}`}},
		{name: "null message refused in both", in: []string{`null`}, throws80: true, throws16: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			model := tc.model
			if model == nil {
				model = target()
			}
			for _, d := range []struct {
				d      dialect.Dialect
				want   []string
				throws bool
			}{{dialect.V0_80, tc.want080, tc.throws80}, {dialect.V1_6, tc.want16, tc.throws16}} {
				got, err := normalizeIn(t, d.d, model, tc.in)
				if d.throws {
					if err == nil {
						t.Errorf("%s: got %s, want it refused", d.d, got)
					}
					continue
				}
				if err != nil {
					t.Errorf("%s: %v", d.d, err)
					continue
				}
				want, err := jsonv.Parse([]byte("[" + strings.Join(d.want, ",") + "]"))
				if err != nil {
					t.Fatal(err)
				}
				if !jsonv.Equal(got, want) {
					t.Errorf("%s:\ngot  %s\nwant %s", d.d, got, want)
				}
			}
		})
	}
}

// TestFillContentThrowsAtNull: a null element is where Pi throws, as
// ErrThrows at its index; 0.80 leaves the messages to the decoder.
func TestFillContentThrowsAtNull(t *testing.T) {
	v, _ := jsonv.Parse([]byte(`[{"role":"user","content":"x"},null]`))
	_, err := FillContent(dialect.V1_6, v, "/messages")
	var pe *jsonv.PathError
	if !errors.Is(err, ErrThrows) || !errors.As(err, &pe) || pe.Pointer != "/messages/1" {
		t.Fatalf("err = %v, want ErrThrows at /messages/1", err)
	}
	got, err := FillContent(dialect.V0_80, v, "/messages")
	if err != nil || !jsonv.Equal(got, v) {
		t.Fatalf("0.80: %s, %v; want the input back", got, err)
	}
}
