package suite

import (
	"strings"
	"testing"
	"testing/fstest"
)

func TestReadSpecReadsEveryMarkdownFile(t *testing.T) {
	fsys := fstest.MapFS{
		"spec/SPEC.md":          {Data: []byte("# Spec\n\n### a.one: First\n\n### b.two: Second\n")},
		"spec/wire-x.md":        {Data: []byte("# X\n\n### wire.x.three: Third\n")},
		"spec/PROTOCOL.md":      {Data: []byte("### hello (runner → adapter)\n### wire: not a rule id\n")},
		"spec/schemas/notes.md": {Data: []byte("### c.four: not read, below spec/\n")},
	}
	rules, err := ReadSpec(fsys)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range rules {
		got = append(got, r.File+":"+r.ID)
	}
	if want := "spec/SPEC.md:a.one spec/SPEC.md:b.two spec/wire-x.md:wire.x.three"; strings.Join(got, " ") != want {
		t.Errorf("rules %q, want %q", got, want)
	}

	fsys["spec/wire-y.md"] = &fstest.MapFile{Data: []byte("\n### a.one: Again\n")}
	if _, err := ReadSpec(fsys); err == nil || !strings.Contains(err.Error(), "spec/wire-y.md:2: rule a.one is already defined in spec/SPEC.md:3") {
		t.Errorf("duplicate across files: %v", err)
	}
	if _, err := ReadSpec(fstest.MapFS{}); err == nil {
		t.Error("no spec files: no error")
	}
}
