package perturb_test

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/piconform/piconform/harness/kinds"
	"github.com/piconform/piconform/harness/perturb"
	"github.com/piconform/piconform/harness/run"
	"github.com/piconform/piconform/harness/subject"
	"github.com/piconform/piconform/harness/suite"
	"github.com/piconform/piconform/reference/jsonv"
)

// sessionsEnv is how many session files TestGeneratedSessions has the real
// coding agent write (default 300), and seedEnv the seed of the first (default
// 1), so that a long run can go on where CI's seeds end. writerEnv names an
// older Pi (a version as adapters/pi-ts/install.sh takes it, 0.27.9 say)
// whose SessionManager writes the files in its own format, which Pi 0.80.2
// then migrates as it loads them.
const (
	sessionsEnv = "PICONFORM_SESSIONS"
	seedEnv     = "PICONFORM_SESSIONS_SEED"
	writerEnv   = "PICONFORM_SESSIONS_WRITER"
)

// TestGeneratedSessions has Pi's own SessionManager write session files from
// seeded random walks (adapters/pi-ts/gen-sessions.mjs: every message role,
// model and thinking-level changes, compactions, branches, labels, custom
// entries), then loads each through the reference and the real Pi as a
// session case, continues the agent messages it gives as a pipeline case
// (either convertToLlm, sometimes after a transformContext), and sends the
// LLM messages it gives to every provider API (in
// place of the messages of each API's wire/<api>-minimal-text case, and of
// one more wire case of that API the session's seed draws, so that other
// models, options, tools and server answers meet real transcripts too), by
// stream and by streamSimple at the session's thinking level. It
// lists every file on which they differ: in the session's output, in a
// request, or in what is made of the answer. The suite's cases are written
// by hand around one rule each; these are what a real session file looks
// like, rules in combination, and a long cross-provider transcript.
//
//	PICONFORM_PI=1 go test ./harness/perturb -run TestGeneratedSessions -v
func TestGeneratedSessions(t *testing.T) {
	cmd, root := piCommand(t, "load generated session files")
	adapter := filepath.Join(root, "adapters/pi-ts")
	gen := exec.Command(filepath.Join(adapter, "node_modules/node/bin/node"), filepath.Join(adapter, "gen-sessions.mjs"),
		strconv.Itoa(envInt(t, sessionsEnv, 300)), strconv.Itoa(envInt(t, seedEnv, 1)))
	gen.Env = append(os.Environ(), "PI_TS_ROOT="+adapter)
	if v := os.Getenv(writerEnv); v != "" {
		gen.Env = append(gen.Env, "PI_SESSIONS_WRITER="+installed(t, adapter, v))
	}
	gen.Stderr = os.Stderr
	out, err := gen.Output()
	if err != nil {
		t.Fatalf("gen-sessions.mjs (run adapters/pi-ts/install.sh first): %v", err)
	}

	s, err := kinds.Load(".", os.DirFS(root), ".")
	if err != nil {
		t.Fatal(err)
	}
	// Each API's minimal-text case is a template for every session; each
	// session also goes to one more wire case of each API, drawn by its
	// seed, with that case's model, options, tools and server answer.
	var minimal []*suite.Case
	byAPI := map[string][]*suite.Case{}
	d := piDialect(t, cmd, root)
	for _, c := range s.Cases {
		if c.Kind != "wire" || !c.HoldsIn(d) {
			continue
		}
		if strings.HasSuffix(c.ID, "-minimal-text") {
			minimal = append(minimal, c)
		}
		byAPI[wireAPI(c)] = append(byAPI[wireAPI(c)], c)
	}
	if len(minimal) == 0 {
		t.Fatal("no wire/<api>-minimal-text case to send the sessions' messages with")
	}
	fixtures := kinds.Builtin.Fixtures(kinds.FixtureOptions{Dialect: d})

	ctx := context.Background()
	pi := &subject.Process{Command: cmd, Dir: root}
	if _, err := pi.Start(ctx); err != nil {
		t.Fatalf("start %s: %v", cmd, err)
	}
	defer pi.Close()
	ref := inDialect{&subject.Reference{}, d}
	var findings []finding
	files, runs := 0, 0
	lastLog := time.Now()
	// check compares one use of a session's input, listing a difference
	// under label, and returns the reference's output when they agree.
	check := func(c *suite.Case, fx run.Fixture, input jsonv.Value, use, label string) (jsonv.Value, bool) {
		runs++
		f, unconfirmed, out, err := compareConfirmed(ctx, ref, pi, fx, c, input, generated(use, input))
		if err != nil {
			t.Fatal(err)
		}
		logUnconfirmed(t, unconfirmed)
		if f != nil {
			f.Case = label
			findings = append(findings, *f)
		}
		return out, f == nil
	}
	lines := bufio.NewScanner(bytes.NewReader(out))
	lines.Buffer(nil, 64<<20)
	for lines.Scan() {
		line, err := jsonv.Parse(lines.Bytes())
		if err != nil {
			t.Fatal(err)
		}
		seed, _ := line.Get("seed")
		text, _ := line.Get("text")
		input := jsonv.ObjectValue(jsonv.Member{Key: "text", Value: text})
		c := &suite.Case{ID: fmt.Sprintf("session/generated-%s", seed.String()), Kind: "session", Input: input}
		files++
		// Progress at least every 10 s (go test -v prints it as it comes).
		if time.Since(lastLog) >= 10*time.Second {
			lastLog = time.Now()
			t.Logf("%d session files, %d runs, %d findings", files-1, runs, len(findings))
		}
		loaded, ok := check(c, nil, input, "session", c.ID)
		if !ok {
			continue
		}
		n, _ := strconv.Atoi(seed.String())
		draw := rand.New(rand.NewPCG(uint64(n), 0))

		// The same file with its entries' timestamps written in other
		// forms, some that Date cannot read, loaded with the manager's
		// tree and the compaction check, which read them too.
		retimed := rand.New(rand.NewPCG(uint64(n), 1))
		views := jsonv.ObjectValue(
			jsonv.Member{Key: "text", Value: jsonv.StringValue(retime(t, text.Str(), retimed))},
			jsonv.Member{Key: "tree", Value: jsonv.BoolValue(true)},
			jsonv.Member{Key: "assistantTimestamp", Value: assistantTimestamps[retimed.IntN(len(assistantTimestamps))]},
		)
		check(c, nil, views, "session retimed", c.ID+" retimed")

		// The session's agent messages continue an agent run, as the
		// coding agent continues a session: with its convertToLlm or an
		// Agent's default one (which drops custom messages), now and then
		// after a transformContext that keeps the last few.
		agentMsgs, _ := loaded.Get("messages")
		pin := jsonv.ObjectValue(
			jsonv.Member{Key: "messages", Value: agentMsgs},
			jsonv.Member{Key: "convert", Value: jsonv.StringValue([]string{"coding-agent", "default"}[draw.IntN(2)])},
		)
		if draw.IntN(3) == 0 {
			keep := jsonv.ObjectValue(jsonv.Member{Key: "keepLast", Value: jsonv.NumberValue(strconv.Itoa(1 + draw.IntN(5)))})
			pin = pin.With("transform", keep)
		}
		check(&suite.Case{ID: "pipeline/generated-" + seed.String(), Kind: "pipeline"}, fixtures["pipeline"], pin, "pipeline", c.ID+" as pipeline")

		llm, _ := loaded.Get("llmMessages")
		level, _ := loaded.Get("thinkingLevel")
		templates := slices.Clone(minimal)
		for _, tc := range minimal {
			cases := byAPI[wireAPI(tc)]
			templates = append(templates, cases[draw.IntN(len(cases))])
		}
		for _, tc := range templates {
			wctx, _ := tc.Input.Get("context")
			input := tc.Input.With("context", wctx.With("messages", llm))
			// streamSimple too, at the session's thinking level, as the
			// coding agent calls it.
			opts, ok := input.Get("options")
			if !ok {
				opts = jsonv.ObjectValue()
			}
			if level.Kind() == jsonv.String && level.Str() != "off" {
				opts = opts.With("reasoning", level)
			}
			simple := input.With("call", jsonv.StringValue("streamSimple")).With("options", opts)
			check(tc, fixtures["wire"], input, "stream", c.ID+" via "+tc.ID)
			check(tc, fixtures["wire"], simple, "streamSimple", c.ID+" via "+tc.ID)
		}
	}
	if err := lines.Err(); err != nil {
		t.Fatal(err)
	}
	if files == 0 {
		t.Fatal("gen-sessions.mjs wrote no session")
	}
	t.Logf("%d session files, each continued as a pipeline and sent to %d APIs by stream and streamSimple, with their minimal-text case and one more", files, len(minimal))
	report(t, runs, findings)
}

// timestampForms rewrite a time in the forms a session file may hold
// (written by other tools, or by hand): Date.toString's, RFC 2822, slashed
// and month-name dates, two-digit years, ISO without its T, a number, and
// strings no Date reads.
var timestampForms = []func(time.Time) jsonv.Value{
	func(t time.Time) jsonv.Value { return jsonv.StringValue(t.Format(time.RFC3339Nano)) },
	func(t time.Time) jsonv.Value {
		return jsonv.StringValue(t.In(time.FixedZone("", 3600)).Format("Mon Jan 02 2006 15:04:05 GMT-0700 (Central European Standard Time)"))
	},
	func(t time.Time) jsonv.Value { return jsonv.StringValue(t.Format("Mon, 02 Jan 2006 15:04:05 GMT")) },
	func(t time.Time) jsonv.Value { return jsonv.StringValue(t.Format("2006/01/02 15:04:05")) },
	func(t time.Time) jsonv.Value { return jsonv.StringValue(t.Format("January 2, 2006 3:04 PM")) },
	func(t time.Time) jsonv.Value { return jsonv.StringValue(t.Format("2 Jan 06 15:04 UTC")) },
	func(t time.Time) jsonv.Value { return jsonv.StringValue(t.Format("1/2/06 15:04:05.000")) },
	func(t time.Time) jsonv.Value { return jsonv.StringValue(t.Format("2006-01-02 15:04:05")) },
	func(t time.Time) jsonv.Value {
		return jsonv.StringValue(t.Add(-5 * time.Hour).Format("Jan 2 2006 15:04 EST"))
	},
	func(t time.Time) jsonv.Value { return jsonv.NumberValue(strconv.FormatInt(t.UnixMilli(), 10)) },
	func(t time.Time) jsonv.Value { return jsonv.StringValue(t.Format("2006-13-02T15:04:05Z")) },
	func(time.Time) jsonv.Value { return jsonv.StringValue("not a date") },
	func(time.Time) jsonv.Value { return jsonv.StringValue("") },
	func(time.Time) jsonv.Value { return jsonv.NullValue() },
}

// assistantTimestamps are the timestamps a retimed session's compaction
// check is asked about: before, around and after any generated time.
var assistantTimestamps = []jsonv.Value{
	jsonv.NumberValue("0"), jsonv.NumberValue("1700000000000"), jsonv.NumberValue("1800000000000"),
	jsonv.NumberValue("4102444800000"), jsonv.StringValue("1800000000000"), jsonv.NullValue(),
}

// retime rewrites about half of the entries' timestamps of a session file
// in one of timestampForms, drawn by draw. A line that is not an object
// with a string timestamp Go reads as RFC 3339 stays as it is.
func retime(t *testing.T, text string, draw *rand.Rand) string {
	t.Helper()
	var out []string
	for _, line := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
		v, err := jsonv.Parse([]byte(line))
		ts, _ := v.Get("timestamp")
		if err != nil || v.Kind() != jsonv.Object || ts.Kind() != jsonv.String || draw.IntN(2) == 0 {
			out = append(out, line)
			continue
		}
		when, err := time.Parse(time.RFC3339Nano, ts.Str())
		if err != nil {
			out = append(out, line)
			continue
		}
		out = append(out, string(v.With("timestamp", timestampForms[draw.IntN(len(timestampForms))](when.UTC())).AppendJSON(nil)))
	}
	return strings.Join(out, "\n") + "\n"
}

// installed is the folder of Pi version v, which adapters/pi-ts/install.sh
// installs unless it already has: the last line it prints.
func installed(t *testing.T, adapter, v string) string {
	t.Helper()
	install := exec.Command(filepath.Join(adapter, "install.sh"), v)
	install.Stderr = os.Stderr
	out, err := install.Output()
	if err != nil {
		t.Fatalf("install.sh %s: %v", v, err)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	return lines[len(lines)-1]
}

// wireAPI is the model.api of a wire case.
func wireAPI(c *suite.Case) string {
	model, _ := c.Input.Get("model")
	api, _ := model.Get("api")
	return api.String()
}

// generated is a generated input as a finding names it: nothing was
// changed, and the change says how the input was used.
func generated(use string, input jsonv.Value) perturb.Variant {
	return perturb.Variant{Change: "generated " + use, Input: input}
}
