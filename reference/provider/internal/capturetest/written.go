package capturetest

import (
	"bytes"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/provider"
	"github.com/piconform/piconform/reference/transform"
)

// CheckWritten checks that d.WriteRequest, reading the context's messages
// one at a time, writes exactly the bytes of BuildRequest's body, or fails
// with BuildRequest's error, and sends the same request line and headers:
// a driver that streams (Driver.Stream) must
// build through one path.
func CheckWritten(t *testing.T, d provider.Driver, model *ai.Model, ctx *ai.Context, opts provider.Options, now transform.Clock) {
	t.Helper()
	built, buildErr := d.BuildRequest(model, ctx, opts, now)
	var w bytes.Buffer
	written, writeErr := d.WriteRequest(model, ctx, provider.TranscriptOf(ctx.Messages), opts, now, &w)
	switch {
	case buildErr != nil || writeErr != nil:
		if buildErr == nil || writeErr == nil || buildErr.Error() != writeErr.Error() {
			t.Errorf("WriteRequest error = %v, BuildRequest error = %v", writeErr, buildErr)
		}
	case w.String() != string(built.Body.AppendJSON(nil)):
		t.Errorf("WriteRequest wrote\n%s\nBuildRequest's body is\n%s", w.String(), built.Body.AppendJSON(nil))
	case written.Method != built.Method || written.URL != built.URL:
		t.Errorf("WriteRequest request line = %s %s, BuildRequest's = %s %s", written.Method, written.URL, built.Method, built.URL)
	default:
		if diff := cmp.Diff(built.Header, written.Header); diff != "" {
			t.Errorf("headers (-BuildRequest +WriteRequest):\n%s", diff)
		}
	}
}

// CheckWriteRequests runs CheckWritten on every case of files (captures
// such as testdata/requests.json and testdata/streams.json).
func (p Captures) CheckWriteRequests(t *testing.T, files ...string) {
	if p.Setup != nil {
		p.Setup(t)
	}
	for _, file := range files {
		for _, c := range p.Cases(t, file) {
			t.Run(file+"/"+c.Name, func(t *testing.T) { CheckWritten(t, p.Driver, c.Model, c.Context, c.Options, Clock) })
		}
	}
}
