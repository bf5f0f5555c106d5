package matrix_test

import (
	"strings"
	"testing"

	"github.com/piconform/piconform/harness/matrix"
)

// TestNoRawControls: an implementation that names itself with terminal
// escapes (ESC, OSC, BEL, CR, a C1 CSI) reaches neither the Markdown nor
// the HTML matrix raw.
func TestNoRawControls(t *testing.T) {
	m := merge(t, "hostile-name.jsonl")
	page, err := matrix.HTML(m)
	if err != nil {
		t.Fatal(err)
	}
	for name, out := range map[string]string{"HTML": string(page), "Markdown": string(matrix.Markdown(m))} {
		if i := strings.IndexFunc(out, isRawControl); i >= 0 {
			t.Errorf("the %s holds the control %q at %d", name, out[i:i+1], i)
		}
		if !strings.Contains(out, `x1b`) || !strings.Contains(out, "owned") {
			t.Errorf("the %s does not show the escaped name", name)
		}
	}
}

func isRawControl(r rune) bool {
	return r != '\n' && r != '\t' && (r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0)
}
