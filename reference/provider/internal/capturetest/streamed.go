package capturetest

import (
	"bytes"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/provider"
	"github.com/piconform/piconform/reference/transform"
)

// CheckStreamed checks that d.WriteRequest, reading ctx's messages one at
// a time (ctx.Messages is not given to it), writes exactly the bytes of
// the body d.BuildRequest builds, with the same request line and headers,
// or fails with BuildRequest's error.
func CheckStreamed(t *testing.T, d provider.Driver, model *ai.Model, ctx *ai.Context, opts provider.Options, now transform.Clock) {
	t.Helper()
	want, wantErr := d.BuildRequest(model, ctx, opts, now)
	var buf bytes.Buffer
	c := *ctx
	c.Messages = nil
	got, err := d.WriteRequest(model, &c, provider.TranscriptOf(ctx.Messages), opts, now, &buf)
	if wantErr != nil || err != nil {
		if wantErr == nil || err == nil || err.Error() != wantErr.Error() {
			t.Errorf("WriteRequest error = %v, BuildRequest's = %v", err, wantErr)
		}
		return
	}
	if body := string(want.Body.AppendJSON(nil)); buf.String() != body {
		t.Errorf("WriteRequest wrote\n%s\nBuildRequest's body is\n%s", buf.String(), body)
	}
	w, g := want.Request, got.Request
	if g.Method != w.Method || g.URL != w.URL {
		t.Errorf("WriteRequest's request line = %s %s, BuildRequest's %s %s", g.Method, g.URL, w.Method, w.URL)
	}
	if diff := cmp.Diff(w.Header, g.Header); diff != "" {
		t.Errorf("WriteRequest's headers (-BuildRequest's +got):\n%s", diff)
	}
}

// CheckStreamedRequests runs CheckStreamed on each case of file
// (testdata/requests.json).
func (p Captures) CheckStreamedRequests(t *testing.T, file string) {
	if p.Setup != nil {
		p.Setup(t)
	}
	for _, c := range p.Cases(t, file) {
		t.Run(c.Name, func(t *testing.T) { CheckStreamed(t, p.Driver, c.Model, c.Context, c.Options, Clock) })
	}
}
