package ai_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/jsonv"
)

// wireModel is a model with every member DecodeWireModel reads leniently
// of another type than Pi declares.
const wireModel = `{"id":7,"name":[],"api":"anthropic-messages","provider":null,"baseUrl":"http://x",
 "reasoning":"yes","input":"text,image","cost":"free","contextWindow":null,"maxTokens":"10","thinkingLevelMap":3}`

func TestDecodeWireModel(t *testing.T) {
	m, err := ai.DecodeWireModel(parse(t, wireModel), "/model")
	if err != nil {
		t.Fatal(err)
	}
	type summary struct {
		ID, Provider, MaxTokens, CostInput string
		Reasoning, Images, LevelMap        bool
	}
	got := summary{
		ID: string(m.IDValue().AppendJSON(nil)), Provider: m.ProviderValue().JSString(), MaxTokens: string(m.MaxTokens.AppendJSON(nil)),
		CostInput: m.Cost.Input.Kind().String(), Reasoning: m.Reasoning, Images: m.AcceptsImages(), LevelMap: !m.ThinkingLevelMap.IsAbsent(),
	}
	// The map 3 is kept, truthy as Pi tests it, with no level in it.
	want := summary{ID: "7", Provider: "null", MaxTokens: `"10"`, CostInput: "absent", Reasoning: true, Images: true, LevelMap: true}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("DecodeWireModel (-want +got):\n%s", diff)
	}
	if v, ok := m.ThinkingLevelMap.Get("high"); ok || !m.ThinkingLevelMap.Truthy() {
		t.Errorf("thinkingLevelMap 3: level high %v (%v), truthy %v; want no level, truthy", v, ok, m.ThinkingLevelMap.Truthy())
	}
	for _, bad := range []struct{ old, new, want string }{
		{`"input":"text,image"`, `"input":null`, "/model/input: want an array or a string, got null"},
		{`"api":"anthropic-messages"`, `"api":7`, "/model/api: want string, got number"},
	} {
		_, err := ai.DecodeWireModel(parse(t, strings.Replace(wireModel, bad.old, bad.new, 1)), "/model")
		if err == nil || err.Error() != bad.want {
			t.Errorf("with %s: error %v, want %q", bad.new, err, bad.want)
		}
	}
}

func TestDecodeWireContext(t *testing.T) {
	c, err := ai.DecodeWireContext(parse(t, `{"systemPrompt":null,"messages":["x",{"role":7},{"role":"user","content":"hi"}]}`), "/context", false)
	if err != nil {
		t.Fatal(err)
	}
	var roles []string
	for _, m := range c.Messages {
		_, foreign := m.(*ai.ForeignMessage)
		roles = append(roles, m.Role()+map[bool]string{true: " (foreign)"}[foreign])
	}
	if diff := cmp.Diff([]string{" (foreign)", " (foreign)", "user"}, roles); diff != "" || c.SystemPrompt != nil {
		t.Errorf("DecodeWireContext: systemPrompt %v, roles (-want +got):\n%s", c.SystemPrompt, diff)
	}
	for in, want := range map[string]string{
		`{"systemPrompt":7,"messages":[]}`:                  "/context/systemPrompt: want a string, got number (Pi sanitizes it as one)",
		`{"messages":[null]}`:                               "/context/messages/0: want an object, got null",
		`{"messages":[{"role":"user","content":"a"},null]}`: "/context/messages/1: want an object, got null",
	} {
		if _, err := ai.DecodeWireContext(parse(t, in), "/context", false); err == nil || err.Error() != want {
			t.Errorf("DecodeWireContext(%s): error %v, want %q", in, err, want)
		}
	}
}

// TestDecodeWireContextLenient: for a driver that reads them as Pi does,
// members of other types are kept as written, not refused.
func TestDecodeWireContextLenient(t *testing.T) {
	in := `{"messages":[{"role":"assistant","content":[7,{"type":"text","text":null}],"api":null,"provider":"p","model":"m","stopReason":"stop"},` +
		`{"role":"toolResult","toolCallId":1,"toolName":"t","content":[]}],"tools":[{"name":2,"parameters":"x"}]}`
	if _, err := ai.DecodeWireContext(parse(t, in), "/context", false); err == nil {
		t.Fatal("strict decoding accepted members of other types")
	}
	c, err := ai.DecodeWireContext(parse(t, in), "/context", true)
	if err != nil {
		t.Fatal(err)
	}
	if got := string(c.JSON().AppendJSON(nil)); got != in {
		t.Errorf("lenient context does not encode back as written:\n got %s\nwant %s", got, in)
	}
	a := c.Messages[0].(*ai.AssistantMessage)
	if a.APIValue().Kind() != jsonv.Null || a.ProviderValue().Str() != "p" || c.Tools[0].NameValue().String() != "2" {
		t.Errorf("lenient values: api %s, provider %s, tool name %s", a.APIValue(), a.ProviderValue(), c.Tools[0].NameValue())
	}
}

// TestDecodeWireContextLenientTools: tools that are not an array have no
// length, so Pi sends none; a non-empty string, which Pi maps, and a null
// element, whose members it reads, are refused where an API maps them
// (MappedTools), not when the context is read; an element that is not an
// object has undefined members.
func TestDecodeWireContextLenientTools(t *testing.T) {
	for in, want := range map[string]string{
		`{"messages":[],"tools":{}}`:              "0 tools, HasTools false",
		`{"messages":[],"tools":7}`:               "0 tools, HasTools false",
		`{"messages":[],"tools":""}`:              "0 tools, HasTools false",
		`{"messages":[],"tools":[5,"x",[]]}`:      "3 tools, HasTools true",
		`{"messages":[],"tools":"abc"}`:           "mapped: /context/tools: want an array, got a string (Pi maps it)",
		`{"messages":[],"tools":[{},null,null]}`:  "mapped: /context/tools/1: want an object, got null",
		`{"messages":[],"tools":[{"name":null}]}`: "1 tools, HasTools true",
	} {
		c, err := ai.DecodeWireContext(parse(t, in), "/context", true)
		if err != nil {
			t.Errorf("%s: %v", in, err)
			continue
		}
		got := ""
		if tools, err := c.MappedTools(); err != nil {
			got = "mapped: " + err.Error()
		} else {
			got = fmt.Sprintf("%d tools, HasTools %v", len(tools), c.HasTools)
		}
		if got != want {
			t.Errorf("%s: %s, want %s", in, got, want)
		}
	}
}

// TestDecodeWireContextLenientSystemPrompt: a truthy system prompt of
// another type is kept for the API: one that sanitizes it refuses it, one
// that copies it unread (codex) sends it as written.
func TestDecodeWireContextLenientSystemPrompt(t *testing.T) {
	c, err := ai.DecodeWireContext(parse(t, `{"systemPrompt":[7],"messages":[]}`), "/context", true)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.SystemText(); err == nil || err.Error() != "/context/systemPrompt: want a string to sanitize, got array" {
		t.Errorf("SystemText: %v", err)
	}
	if got := c.SystemPromptValue().String(); got != "[7]" || c.JSON().String() != `{"systemPrompt":[7],"messages":[]}` {
		t.Errorf("SystemPromptValue %s, JSON %s", got, c.JSON())
	}
	c, err = ai.DecodeWireContext(parse(t, `{"systemPrompt":"s","messages":[]}`), "/context", true)
	if text, terr := c.SystemText(); err != nil || terr != nil || text != "s" {
		t.Errorf("a string prompt: %q, %v, %v", text, err, terr)
	}
}
