package bedrock

import (
	"encoding/base64"
	"errors"
	"slices"
	"testing"

	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/jsonv/jsonvtest"
	"github.com/piconform/piconform/reference/provider/internal/capturetest"
	"github.com/piconform/piconform/reference/provider/stream"
	"github.com/piconform/piconform/reference/transform"
)

// TestDecodeBase64 checks atob against what Node 22 answers for the same
// texts, String() of data of other types included ("null", "undefined").
func TestDecodeBase64(t *testing.T) {
	for _, tc := range []struct{ in, want, err string }{
		{in: "QQ==", want: "QQ=="},
		{in: "QQ", want: "QQ=="},
		{in: "QQQ=", want: "QQQ="},
		{in: " Q Q = = ", want: "QQ=="},
		{in: "null", want: "null"},
		{in: "true", want: "true"},
		{in: "", want: ""},
		{in: "Q", err: errBase64Length.Error()},
		{in: "undefined", err: errBase64Length.Error()},
		{in: "QQ=A", err: errBase64Character.Error()},
		{in: "Q===", err: errBase64Character.Error()},
		{in: "QQ=", err: errBase64Character.Error()},
		{in: "QQQQ=", err: errBase64Character.Error()},
		{in: "a-b", err: errBase64Character.Error()},
		{in: "[object Object]", err: errBase64Character.Error()},
		{in: "QQ==QQ", err: errBase64Character.Error()},
	} {
		got, err := decodeBase64(tc.in)
		switch {
		case tc.err != "":
			if err == nil || err.Error() != tc.err {
				t.Errorf("decodeBase64(%q) error = %v, want %q", tc.in, err, tc.err)
			}
		case err != nil:
			t.Errorf("decodeBase64(%q): %v", tc.in, err)
		case base64.StdEncoding.EncodeToString(got) != tc.want:
			t.Errorf("decodeBase64(%q) = %q, want %q", tc.in, base64.StdEncoding.EncodeToString(got), tc.want)
		}
	}
}

// claude is a budget-thinking Claude model on Bedrock, as the presets
// write it.
const claude = `{"id":"anthropic.claude-sonnet-4-5-20250929-v1:0","name":"Claude Sonnet 4.5","api":"bedrock-converse-stream",
	"provider":"amazon-bedrock","baseUrl":"https://bedrock-runtime.us-east-1.amazonaws.com","reasoning":true,
	"input":["text","image"],"cost":{"input":3,"output":15,"cacheRead":0.3,"cacheWrite":3.75},"contextWindow":200000,"maxTokens":64000}`

// sameModel makes an assistant of the claude model, so transform keeps its blocks.
const sameModel = `"api":"bedrock-converse-stream","provider":"amazon-bedrock","model":"anthropic.claude-sonnet-4-5-20250929-v1:0","usage":{},"stopReason":"toolUse"`

// TestLenientMembers pins how values of other types than Pi declares reach
// the body (wire.bedrock.lenient): the member at pointer, or an error.
func TestLenientMembers(t *testing.T) {
	const env = `"bearerToken":"t","env":{"AWS_BEDROCK_FORCE_CACHE":"0"},"cacheRetention":"none"`
	for _, tc := range []struct {
		name, ctx, opts string
		pointer         []string // object keys and array indices into the body
		want            string   // JSON; "" means left out
		throws          bool     // Pi throws a TypeError
		fails           string   // Pi's error message, without a request
	}{
		{name: "tool-call members as they are, null left out",
			ctx:     `{"messages":[{"role":"assistant","content":[{"type":"toolCall","id":7,"name":null,"arguments":"x"}],` + sameModel + `}]}`,
			pointer: []string{"messages", "0", "content", "0"}, want: `{"toolUse":{"toolUseId":7,"input":"x"}}`},
		{name: "unknown user elements left out",
			ctx:     `{"messages":[{"role":"user","content":[{"type":"mystery","text":"no"},5,{"type":"text","text":"hi","textSignature":1}]}]}`,
			pointer: []string{"messages", "0", "content"}, want: `[{"text":"hi"}]`},
		{name: "tool-result element of another type read as text",
			ctx:     `{"messages":[{"role":"toolResult","toolCallId":null,"toolName":"t","content":[{"type":"x","text":"yes"}],"isError":false}]}`,
			pointer: []string{"messages", "0", "content", "0"}, want: `{"toolResult":{"content":[{"text":"yes"}],"status":"success"}}`},
		{name: "tool-result element without text",
			ctx: `{"messages":[{"role":"toolResult","toolCallId":"c","toolName":"t","content":[{"type":"x"}],"isError":false}]}`, throws: true},
		{name: "empty string tool-result content holds nothing",
			ctx:     `{"messages":[{"role":"toolResult","toolCallId":"c","toolName":"t","content":"","isError":false}]}`,
			pointer: []string{"messages", "0", "content", "0", "toolResult", "content"}, want: `[{"text":"<empty>"}]`},
		{name: "string tool-result content", ctx: `{"messages":[{"role":"toolResult","toolCallId":"c","toolName":"t","content":"ab","isError":false}]}`, throws: true},
		{name: "user content a number", ctx: `{"messages":[{"role":"user","content":5}]}`, throws: true},
		{name: "assistant text a number",
			ctx: `{"messages":[{"role":"assistant","content":[{"type":"text","text":5}],` + sameModel + `}]}`, throws: true},
		{name: "falsy signature of another type is none",
			ctx:     `{"messages":[{"role":"assistant","content":[{"type":"thinking","thinking":"t","thinkingSignature":false}],` + sameModel + `}]}`,
			pointer: []string{"messages", "0", "content", "0"}, want: `{"text":"t"}`},
		{name: "image mimeType a number",
			ctx: `{"messages":[{"role":"user","content":[{"type":"image","mimeType":7,"data":"QQ=="}]}]}`, fails: "Unknown image type: 7"},
		{name: "image data true is base64",
			ctx:     `{"messages":[{"role":"user","content":[{"type":"image","mimeType":"image/png","data":true}]}]}`,
			pointer: []string{"messages", "0", "content", "0", "image", "source"}, want: `{"bytes":"true"}`},
		{name: "image data absent", ctx: `{"messages":[{"role":"user","content":[{"type":"image","mimeType":"image/png"}]}]}`,
			fails: "The string to be decoded is not correctly encoded."},
		{name: "tool members as they are",
			ctx:     `{"messages":[],"tools":[{"name":9,"description":null,"parameters":"s"}]}`,
			pointer: []string{"toolConfig", "tools", "0"}, want: `{"toolSpec":{"name":9,"inputSchema":{"json":"s"}}}`},
		{name: "reasoning of another type looks its budget up by String()",
			ctx: `{"messages":[]}`, opts: `"reasoning":7,"thinkingBudgets":{"7":3000},"thinkingDisplay":null,"interleavedThinking":0`,
			pointer: []string{"additionalModelRequestFields"}, want: `{"thinking":{"type":"enabled","budget_tokens":3000,"display":"summarized"}}`},
		{name: "region of another type is its String()",
			ctx: `{"messages":[]}`, opts: `"region":{}`, fails: `Region not accepted: region="[object Object]" is not a valid hostname component.`},
		{name: "region of another type lower-cased for reasoning",
			ctx: `{"messages":[]}`, opts: `"region":7,"reasoning":"low"`, throws: true},
		{name: "numeric region is called for its value", ctx: `{"messages":[]}`, opts: `"region":7`, throws: true},
		{name: "request metadata drops null members",
			ctx: `{"messages":[]}`, opts: `"requestMetadata":{"a":null,"b":7}`, pointer: []string{"requestMetadata"}, want: `{"b":7}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			opts := "{" + env
			if tc.opts != "" {
				opts += "," + tc.opts
			}
			body, err := capturetest.BuildLenient(t, Driver, claude, tc.ctx, opts+"}")
			var refusal *stream.RequestError
			switch {
			case tc.throws:
				if !errors.Is(err, transform.ErrThrows) {
					t.Fatalf("error = %v, want transform.ErrThrows", err)
				}
				return
			case tc.fails != "":
				if !errors.As(err, &refusal) || refusal.Message != tc.fails {
					t.Fatalf("error = %v, want Pi's %q", err, tc.fails)
				}
				return
			case err != nil:
				t.Fatal(err)
			}
			capturetest.CheckMember(t, body, tc.pointer, tc.want)
		})
	}
}

// TestHeadersOfOtherTypes checks a caller's headers of other types than
// string against what Pi 0.80.2 sent (or threw): Node's lines with a
// bearer token, the SigV4 signer's throw where it signs the header.
func TestHeadersOfOtherTypes(t *testing.T) {
	const (
		bearer = `"bearerToken":"t"`
		sigv4  = `"env":{"AWS_ACCESS_KEY_ID":"AKIDEXAMPLE","AWS_SECRET_ACCESS_KEY":"secret"}`
	)
	for _, tc := range []struct {
		name, creds, headers string
		header               string
		want                 []string // the header's lines; nil for none
		throws               bool
	}{
		{"each element a line", bearer, `{"X-A":["a",null,7,{},[1,null,2]]}`, "X-A", []string{"a", "null", "7", "[object Object]", "1,,2"}, false},
		{"an empty array removes the header", bearer, `{"content-type":[]}`, "Content-Type", nil, false},
		{"a later spelling replaces an earlier", bearer, `{"X-A":"s","x-a":["t","u"]}`, "X-A", []string{"t", "u"}, false},
		{"a number as its text", bearer, `{"X-A":7}`, "X-A", []string{"7"}, false},
		{"a signed header of another type throws", sigv4, `{"X-A":["a"]}`, "", nil, true},
		{"an earlier spelling of another type throws too", sigv4, `{"X-A":7,"x-a":"s"}`, "", nil, true},
		{"an unsigned header is sent", sigv4, `{"user-agent":7,"sec-x":[1,2]}`, "Sec-X", []string{"1", "2"}, false},
	} {
		model, err := ai.DecodeWireModel(jsonvtest.Parse(t, claude), "/model")
		if err != nil {
			t.Fatal(err)
		}
		o, err := DecodeOptions(jsonvtest.Parse(t, `{"region":"us-east-1",`+tc.creds+`,"headers":`+tc.headers+`}`), "/options")
		if err != nil {
			t.Fatal(err)
		}
		call, err := BuildRequest(model, &ai.Context{}, o, func() jsonv.Value { return jsonv.NumberValue("1") })
		if tc.throws {
			if !errors.Is(err, transform.ErrThrows) {
				t.Errorf("%s: error = %v, want transform.ErrThrows", tc.name, err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if got := call.Header.Values(tc.header); !slices.Equal(got, tc.want) {
			t.Errorf("%s: %s = %q, want %q", tc.name, tc.header, got, tc.want)
		}
	}
}

// TestModelNameOfOtherType checks a model name that is not a string
// against what Pi 0.80.2 did with it (wire.bedrock.lenient): it throws
// only where it asks whether the model is Claude (any such name but
// null), or whether it caches (a truthy one).
func TestModelNameOfOtherType(t *testing.T) {
	const (
		user     = `{"systemPrompt":"s","messages":[{"role":"user","content":"q"}]}`
		thinking = `{"messages":[{"role":"assistant","content":[{"type":"thinking","thinking":"t"}],` + sameModel + `}]}`
		blank    = `{"messages":[{"role":"assistant","content":[{"type":"thinking","thinking":" "}],` + sameModel + `}]}`
	)
	for _, tc := range []struct {
		why, ctx, opts string
		throwsFor      []string // the names Pi throws on, of 7, 0, false, [], null
	}{
		{"no question asked", user, `"maxTokens":5,"cacheRetention":"none"`, nil},
		{"no maxTokens: is it Claude?", user, `"cacheRetention":"none"`, []string{"7", "0", "false", "[]"}},
		{"caching: does it cache?", user, `"maxTokens":5`, []string{"7", "[]"}},
		{"reasoning: is it Claude?", user, `"maxTokens":5,"cacheRetention":"none","reasoning":"low"`, []string{"7", "0", "false", "[]"}},
		{"thinking to replay: is it Claude?", thinking, `"maxTokens":5,"cacheRetention":"none"`, []string{"7", "0", "false", "[]"}},
		{"blank thinking is skipped first", blank, `"maxTokens":5,"cacheRetention":"none"`, nil},
	} {
		for _, name := range []string{"7", "0", "false", "[]", "null"} {
			model := jsonvtest.Parse(t, claude).With("name", jsonvtest.Parse(t, name)).String()
			_, err := capturetest.BuildLenient(t, Driver, model, tc.ctx, `{"bearerToken":"t",`+tc.opts+`}`)
			want := slices.Contains(tc.throwsFor, name)
			if got := errors.Is(err, transform.ErrThrows); got != want || (!got && err != nil) {
				t.Errorf("%s, name %s: error %v, want a throw %v", tc.why, name, err, want)
			}
		}
	}
}

// TestToolsPiCannotMap checks tools Pi's map throws on (a non-empty
// string, a null element) against what Pi 0.80.2 did: refused where it
// maps them, and never read with toolChoice "none", which it tests first.
func TestToolsPiCannotMap(t *testing.T) {
	for _, tools := range []string{`"abc"`, `[null]`, `[{"name":"t"},null]`} {
		for _, choice := range []string{`"none"`, `"auto"`, `null`} {
			ctx := `{"messages":[{"role":"user","content":"q"}],"tools":` + tools + `}`
			body, err := capturetest.BuildLenient(t, Driver, claude, ctx, `{"bearerToken":"t","maxTokens":5,"toolChoice":`+choice+`}`)
			if choice != `"none"` {
				if err == nil {
					t.Errorf("tools %s, toolChoice %s: sent, want a refusal", tools, choice)
				}
				continue
			}
			if err != nil {
				t.Errorf("tools %s, toolChoice %s: %v", tools, choice, err)
			} else if tc, ok := body.Get("toolConfig"); ok {
				t.Errorf("tools %s, toolChoice %s: toolConfig %s, want none", tools, choice, tc)
			}
		}
	}
}
