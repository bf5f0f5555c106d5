package perturb_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/piconform/piconform/harness/perturb"
	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/jsonv/jsonvtest"
)

func TestVariants(t *testing.T) {
	in, err := jsonv.Parse([]byte(`{"a":1,"b":[true],"s":"x"}`))
	if err != nil {
		t.Fatal(err)
	}
	before := in.String()
	var got []string
	for _, v := range perturb.Variants(in, func(p string) bool { return p == "/s" }) {
		got = append(got, v.Pointer+" "+v.Change+" "+v.Input.String())
	}
	want := []string{
		`/a absent {"b":[true],"s":"x"}`,
		`/a null {"a":null,"b":[true],"s":"x"}`,
		`/a string {"a":"x","b":[true],"s":"x"}`,
		`/a bool {"a":true,"b":[true],"s":"x"}`,
		`/a object {"a":{},"b":[true],"s":"x"}`,
		`/a array {"a":[],"b":[true],"s":"x"}`,
		`/a numeric-string {"a":"1","b":[true],"s":"x"}`,
		`/a overflow {"a":1e400,"b":[true],"s":"x"}`,
		`/a zero {"a":0,"b":[true],"s":"x"}`,
		`/a no-string-form {"a":{"toString":"x"},"b":[true],"s":"x"}`,
		`/b absent {"a":1,"s":"x"}`,
		`/b null {"a":1,"b":null,"s":"x"}`,
		`/b string {"a":1,"b":"x","s":"x"}`,
		`/b number {"a":1,"b":7,"s":"x"}`,
		`/b bool {"a":1,"b":true,"s":"x"}`,
		`/b object {"a":1,"b":{},"s":"x"}`,
		`/b/0 null {"a":1,"b":[null],"s":"x"}`,
		`/b/0 string {"a":1,"b":["x"],"s":"x"}`,
		`/b/0 number {"a":1,"b":[7],"s":"x"}`,
		`/b/0 object {"a":1,"b":[{}],"s":"x"}`,
		`/b/0 array {"a":1,"b":[[]],"s":"x"}`,
		`/b/0 flip {"a":1,"b":[false],"s":"x"}`,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("variants (-want +got):\n%s", diff)
	}
	if in.String() != before {
		t.Errorf("Variants changed its input: %s", in)
	}
}

func TestAdded(t *testing.T) {
	var got []string
	for _, in := range []string{`{"options":{"a":1},"m":2}`, `{"m":2}`, `{"options":7}`} {
		v, err := jsonv.Parse([]byte(in))
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range perturb.Added(v, "options", []string{"a", "b"}) {
			if v.Change == "added empty" || v.Change == "added array" || v.Change == "added no-string-form" {
				got = append(got, v.Pointer+" "+v.Change+" "+v.Input.String())
			}
		}
	}
	want := []string{
		`/options/b added empty {"options":{"a":1,"b":""},"m":2}`,
		`/options/b added array {"options":{"a":1,"b":[]},"m":2}`,
		`/options/b added no-string-form {"options":{"a":1,"b":{"toString":"x"}},"m":2}`,
		`/options/a added empty {"m":2,"options":{"a":""}}`,
		`/options/a added array {"m":2,"options":{"a":[]}}`,
		`/options/a added no-string-form {"m":2,"options":{"a":{"toString":"x"}}}`,
		`/options/b added empty {"m":2,"options":{"b":""}}`,
		`/options/b added array {"m":2,"options":{"b":[]}}`,
		`/options/b added no-string-form {"m":2,"options":{"b":{"toString":"x"}}}`,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("variants (-want +got):\n%s", diff)
	}
}

// TestHeaderValueElements: a header value, and only one, is also put in
// an array with other elements.
func TestHeaderValueElements(t *testing.T) {
	in, err := jsonv.Parse([]byte(`{"options":{"headers":{"h":"v"},"sessionId":"s","n":"v"}}`))
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, v := range perturb.Variants(in, nil) {
		if v.Change == "elements" {
			got[v.Pointer] = v.Input.String()
		}
	}
	want := map[string]string{
		"/options/headers/h": `{"options":{"headers":{"h":[null,"v","x"]},"sessionId":"s","n":"v"}}`,
		"/options/sessionId": `{"options":{"headers":{"h":"v"},"sessionId":[null,"s","x"],"n":"v"}}`,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("elements variants (-want +got):\n%s", diff)
	}
}

func TestPattern(t *testing.T) {
	for in, want := range map[string]string{
		"/messages/12/content/0/type": "/messages/*/content/*/type",
		"/model/id":                   "/model/id",
		"":                            "",
		"/a1/2b":                      "/a1/2b",
	} {
		if got := perturb.Pattern(in); got != want {
			t.Errorf("Pattern(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestBorrowed(t *testing.T) {
	parse := func(s string) jsonv.Value { return jsonvtest.Parse(t, s) }
	pool := perturb.Members{}
	pool.Gather(parse(`{"events":[{"event":"delta","data":{"type":"t","usage":{"in":1,"out":2},"text":"a"}},{"data":"[DONE]"}]}`))
	// A second answer's value for a member the first has is not taken,
	// unless the first is falsy.
	pool.Gather(parse(`[{"events":[{"event":"delta","data":{"type":"t","text":"b","parts":[{"id":""}]}}]}]`))
	pool.Gather(parse(`{"events":[{"event":"delta","data":{"type":"t","parts":[{"id":"p"}]}}]}`))
	// An event of another name or type is another place.
	pool.Gather(parse(`{"events":[{"event":"stop","data":{"type":"t","reason":"end"}},{"event":"delta","data":{"type":"u","id":"x"}}]}`))

	var got []string
	for _, v := range perturb.Borrowed(parse(`{"status":200,"events":[{"event":"delta","data":{"type":"t","usage":{"out":5},"parts":[{},{"id":"q"}]}}]}`), pool) {
		if v.Change != "borrowed" {
			t.Errorf("%s: change %q", v.Pointer, v.Change)
		}
		got = append(got, v.Pointer+" "+v.Input.String())
	}
	want := []string{
		`/events/0/data/text {"status":200,"events":[{"event":"delta","data":{"type":"t","usage":{"out":5},"parts":[{},{"id":"q"}],"text":"a"}}]}`,
		`/events/0/data/usage/in {"status":200,"events":[{"event":"delta","data":{"type":"t","usage":{"out":5,"in":1},"parts":[{},{"id":"q"}]}}]}`,
		`/events/0/data/parts/0/id {"status":200,"events":[{"event":"delta","data":{"type":"t","usage":{"out":5},"parts":[{"id":"p"},{"id":"q"}]}}]}`,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("borrowed variants (-want +got):\n%s", diff)
	}
}
