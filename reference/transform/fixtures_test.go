package transform

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/jsonv"
)

const fixtureDir = "../../fixtures/normalize"

// piOutDir holds what real Pi returned for each normalize case, produced with
// Date.now returning 4242. It lives outside the repository; the comparison
// is skipped when it is missing. PICONFORM_PI_NORMALIZE_OUT overrides it.
func piOutDir() string {
	if d := os.Getenv("PICONFORM_PI_NORMALIZE_OUT"); d != "" {
		return d
	}
	return "/work/scratch/h3/pi-out/normalize"
}

func readJSON(t *testing.T, path string) jsonv.Value {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	v, err := jsonv.Parse(data)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return v
}

// runFixture runs one case file's input and returns the output messages as
// JSON. It also checks that the input was left alone.
func runFixture(t *testing.T, c jsonv.Value) jsonv.Value {
	t.Helper()
	input, _ := c.Get("input")
	rawMsgs, _ := input.Get("messages")
	rawModel, _ := input.Get("model")
	msgs, err := ai.DecodeMessagesAllowForeign(rawMsgs, "/input/messages")
	if err != nil {
		t.Fatal(err)
	}
	model, err := ai.DecodeModel(rawModel, "/input/model")
	if err != nil {
		t.Fatal(err)
	}
	var norm IDNormalizer
	if n, ok := input.Get("toolCallIdNormalizer"); ok {
		replace, _ := n.Get("replace")
		with, _ := n.Get("with")
		var maxLength *int
		if m, ok := n.Get("maxLength"); ok {
			f, _ := m.Float64()
			i := int(f)
			maxLength = &i
		}
		if norm, err = RegexNormalizer(replace.Str(), with.Str(), maxLength); err != nil {
			t.Fatal(err)
		}
	}
	before := ai.MessagesJSON(msgs)
	if !jsonv.Equal(before, rawMsgs) {
		t.Fatalf("messages do not survive decoding:\n%s\n%s", rawMsgs, before)
	}
	out := ai.MessagesJSON(Messages(msgs, model, norm, clock4242))
	if after := ai.MessagesJSON(msgs); !jsonv.Equal(before, after) {
		t.Errorf("input changed:\nbefore %s\nafter  %s", before, after)
	}
	return out
}

func TestFixtures(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(fixtureDir, "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no normalize fixtures in %s (%v)", fixtureDir, err)
	}
	piDir := piOutDir()
	_, statErr := os.Stat(piDir)
	comparePi := statErr == nil
	if !comparePi {
		t.Logf("%s not found: running the cases without comparing to Pi", piDir)
	}
	var mismatched []string
	for _, file := range files {
		name := strings.TrimSuffix(filepath.Base(file), ".json")
		t.Run(name, func(t *testing.T) {
			got := runFixture(t, readJSON(t, file))
			if !comparePi {
				return
			}
			want, _ := readJSON(t, filepath.Join(piDir, name+".json")).Get("messages")
			if !jsonv.Equal(got, want) {
				mismatched = append(mismatched, name)
				t.Errorf("differs from Pi:\ngot  %s\nwant %s", got, want)
			}
		})
	}
	if len(mismatched) > 0 {
		t.Errorf("cases that differ from Pi: %s", strings.Join(mismatched, ", "))
	} else if comparePi {
		t.Logf("all %d cases match Pi", len(files))
	}
}
