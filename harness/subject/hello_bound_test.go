package subject

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/piconform/piconform/protocol"
)

// TestHelloBounded: a hello that names the implementation with a megabyte,
// or lists a thousand kinds, is cut to what a report shows: 200 bytes a
// text (never half a character), 200 entries a list.
func TestHelloBounded(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("é", 1<<19)
	kinds := make([]string, 1000)
	for i := range kinds {
		kinds[i] = "sanitize"
	}
	frame := protocol.HelloReply(protocol.Implementation{Name: long, Version: "1", Language: long, Kinds: kinds, APIs: []string{}})
	impl, err := parseHello(frame.Value())
	if err != nil {
		t.Fatal(err)
	}
	cut := strings.Repeat("é", 100) + "…"
	got := []any{impl.Name, impl.Version, impl.Language, len(impl.Kinds), impl.Kinds[0], impl.APIs}
	if diff := cmp.Diff([]any{cut, "1", cut, 200, "sanitize", []string{}}, got); diff != "" {
		t.Errorf("hello (-want +got):\n%s", diff)
	}
}
