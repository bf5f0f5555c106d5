package capturetest

import (
	"bytes"
	"slices"
	"testing"

	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/provider"
	"github.com/piconform/piconform/reference/transform"
)

// CheckWrites checks, for every case of each file, that the driver's
// streaming path is its batch path (CheckWrite).
func (p Captures) CheckWrites(t *testing.T, files ...string) {
	if p.Setup != nil {
		p.Setup(t)
	}
	for _, file := range files {
		for _, c := range p.Cases(t, file) {
			t.Run(c.Name, func(t *testing.T) { CheckWrite(t, p.Driver, c.Model, c.Context, c.Options, Clock) })
		}
	}
}

// CheckWrite checks that d.WriteRequest, reading the messages from a
// transcript and not from the context, writes the bytes of the body
// d.BuildRequest builds, with the same request line and headers and the
// same body size where Pi reports it (a refused handshake's diagnostic);
// or fails with the same error. A driver that does not stream has nothing
// to check.
func CheckWrite(t *testing.T, d provider.Driver, model *ai.Model, ctx *ai.Context, opts provider.Options, now transform.Clock) {
	t.Helper()
	if d.Stream == nil {
		return // WriteRequest calls BuildRequest
	}
	built, err := d.BuildRequest(model, ctx, opts, now)
	rest := *ctx
	rest.Messages = nil
	var w bytes.Buffer
	written, werr := d.WriteRequest(model, &rest, provider.TranscriptOf(ctx.Messages), opts, now, &w)
	if err != nil || werr != nil {
		_, refused := provider.Refusal(err)
		_, wRefused := provider.Refusal(werr)
		if err == nil || werr == nil || err.Error() != werr.Error() || refused != wRefused {
			t.Errorf("WriteRequest error = %v, BuildRequest's %v", werr, err)
		}
		return
	}
	if got, want := w.String(), string(built.Body.AppendJSON(nil)); got != want {
		t.Errorf("WriteRequest wrote\n%s\nBuildRequest's body is\n%s", got, want)
	}
	if g, w := written.Request, built.Request; g.Method != w.Method || g.URL != w.URL {
		t.Errorf("WriteRequest's request line %s %s, BuildRequest's %s %s", g.Method, g.URL, w.Method, w.URL)
	}
	for _, k := range unionKeys(written.Header, built.Header) {
		if g, w := written.Header.Values(k), built.Header.Values(k); !slices.Equal(g, w) {
			t.Errorf("WriteRequest's header %s = %q, BuildRequest's %q", k, g, w)
		}
	}
	if (written.Handshake == nil) != (built.Handshake == nil) {
		t.Fatalf("WriteRequest's handshake %v, BuildRequest's %v", written.Handshake, built.Handshake)
	}
	if written.Handshake != nil && written.Handshake.Refused != nil {
		got, want := written.Handshake.Refused(now), built.Handshake.Refused(now)
		if !jsonv.Equal(got, want) {
			t.Errorf("refused handshake\n got %s\nwant %s", got, want)
		}
	}
}
