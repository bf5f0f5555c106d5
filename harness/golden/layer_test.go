package golden

import (
	"bytes"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"

	"github.com/piconform/piconform/harness/suite"
	"github.com/piconform/piconform/reference/dialect"
)

// TestLayer: the files an update writes and deletes for one case in one
// dialect, a step function over the dialects.
func TestLayer(t *testing.T) {
	const base, overlay = "golden/convert/x.json", "golden/@1.6/convert/x.json"
	tests := []struct {
		name    string
		files   map[string]string
		d       dialect.Dialect
		content string
		prev    string // "" for the case's first dialect
		want    Files
	}{
		{name: "first dialect, new", d: dialect.V0_80, content: "A",
			want: Files{Write: base, Bytes: []byte("A")}},
		{name: "first dialect, unchanged", files: map[string]string{base: "A"}, d: dialect.V0_80, content: "A"},
		{name: "first dialect, changed", files: map[string]string{base: "A"}, d: dialect.V0_80, content: "B",
			want: Files{Write: base, Bytes: []byte("B")}},
		{name: "same as the dialect before, no overlay", files: map[string]string{base: "A"}, d: dialect.V1_6, content: "A", prev: "A"},
		{name: "same as the dialect before, stale overlay", files: map[string]string{base: "A", overlay: "B"}, d: dialect.V1_6, content: "A", prev: "A",
			want: Files{Remove: overlay}},
		{name: "differs, new overlay", files: map[string]string{base: "A"}, d: dialect.V1_6, content: "B", prev: "A",
			want: Files{Write: overlay, Bytes: []byte("B")}},
		{name: "differs, overlay unchanged", files: map[string]string{base: "A", overlay: "B"}, d: dialect.V1_6, content: "B", prev: "A"},
		{name: "differs, overlay changed", files: map[string]string{base: "A", overlay: "B"}, d: dialect.V1_6, content: "C", prev: "A",
			want: Files{Write: overlay, Bytes: []byte("C")}},
		{name: "the dialect before changed to equal an overlay", files: map[string]string{base: "A", overlay: "B"}, d: dialect.V1_6, content: "B", prev: "B",
			want: Files{Remove: overlay}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fsys := fstest.MapFS{}
			for p, c := range tt.files {
				fsys[p] = &fstest.MapFile{Data: []byte(c)}
			}
			c := &suite.Case{ID: "convert/x", Suite: &suite.Suite{FS: fsys}}
			var prev []byte
			if tt.prev != "" {
				prev = []byte(tt.prev)
			}
			got := layer(c, tt.d, c.OwnGoldenPath(tt.d), []byte(tt.content), prev, bytes.Equal)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("files (-want +got):\n%s", diff)
			}
		})
	}
}
