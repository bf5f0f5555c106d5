package capturetest

import (
	"bytes"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/provider"
	"github.com/piconform/piconform/reference/transform"
)

// BuildRequest is d.BuildRequest, checked against the driver's streaming
// path: Driver.WriteRequest, fed ctx's messages one at a
// time (and a context without them, so nothing reads them there), must
// write the very bytes of the built body, or fail with the same error, and
// build the same URL and headers and report the same body size where Pi
// reports it (a refused handshake's diagnostic).
func BuildRequest(t *testing.T, d provider.Driver, model *ai.Model, ctx *ai.Context, opts provider.Options, now transform.Clock) (*provider.Call, error) {
	t.Helper()
	built, err := d.BuildRequest(model, ctx, opts, now)
	var buf bytes.Buffer
	rest := *ctx
	rest.Messages = nil
	streamed, serr := d.WriteRequest(model, &rest, provider.TranscriptOf(ctx.Messages), opts, now, &buf)
	switch {
	case err != nil || serr != nil:
		if err == nil || serr == nil || err.Error() != serr.Error() {
			t.Errorf("BuildRequest error = %v, WriteRequest error = %v", err, serr)
		}
	default:
		if want := built.Body.AppendJSON(nil); !bytes.Equal(buf.Bytes(), want) {
			t.Errorf("WriteRequest wrote a body other than BuildRequest's (-built +streamed):\n%s", cmp.Diff(string(want), buf.String()))
		}
		if diff := cmp.Diff(built.Header, streamed.Header); built.URL != streamed.URL || diff != "" {
			t.Errorf("WriteRequest built %s %s, BuildRequest %s (-built +streamed headers):\n%s", streamed.Method, streamed.URL, built.URL, diff)
		}
		if refused(built) != refused(streamed) {
			t.Errorf("WriteRequest's refused handshake is %s, BuildRequest's %s", refused(streamed), refused(built))
		}
	}
	return built, err
}

// refused is the JSON of the diagnostic of c's handshake when it is
// refused, or "".
func refused(c *provider.Call) string {
	if c.Handshake == nil || c.Handshake.Refused == nil {
		return ""
	}
	return string(c.Handshake.Refused(Clock).AppendJSON(nil))
}
