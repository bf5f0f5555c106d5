package perturb_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/piconform/piconform/reference/dialect"

	"github.com/piconform/piconform/harness/compare"
	"github.com/piconform/piconform/harness/kinds"
	"github.com/piconform/piconform/harness/perturb"
	"github.com/piconform/piconform/harness/run"
	"github.com/piconform/piconform/harness/subject"
	"github.com/piconform/piconform/harness/suite"
	"github.com/piconform/piconform/harness/wire"
	"github.com/piconform/piconform/reference/conformance"
	"github.com/piconform/piconform/reference/jsonv"
)

// The differential run against the real Pi is opt-in: it needs Node and the
// Pi packages (adapters/pi-ts) and takes minutes.
//
//	PICONFORM_PI=1 go test ./harness/perturb -run TestAgainstPi -v -timeout 0
//
// PICONFORM_PI is the adapter command ("1" means adapters/pi-ts/run.sh).
// PICONFORM_PERTURB_KINDS lists the kinds (comma-separated; default every
// kind), PICONFORM_PERTURB_CASES is a glob over case ids,
// PICONFORM_PERTURB_WIRE_EVERY takes every Nth wire case (default 10),
// starting at PICONFORM_PERTURB_WIRE_OFFSET (default 0; CI gives each
// dialect another offset, so the two together cover more cases),
// PICONFORM_PERTURB_CHANGES lists the changes to make (comma-separated, as
// perturb names them; default every change),
// PICONFORM_PERTURB_JOBS is the number of Pi processes (default 2), and
// PICONFORM_PERTURB_OUT names a JSON-lines file that receives every finding.
// PICONFORM_PERTURB_RESPONSES=1 perturbs the wire cases' server responses
// instead of the inputs: every member under an event's data, as the
// inputs' members are (pointers under /response), but not the status,
// headers, event names or the replay's timing; each object there also gets,
// in turn, every member another case's server sends at the same place
// (change "borrowed").
const (
	piEnv     = "PICONFORM_PI"
	kindsEnv  = "PICONFORM_PERTURB_KINDS"
	casesEnv  = "PICONFORM_PERTURB_CASES"
	changeEnv = "PICONFORM_PERTURB_CHANGES"
	wireEnv   = "PICONFORM_PERTURB_WIRE_EVERY"
	offsetEnv = "PICONFORM_PERTURB_WIRE_OFFSET"
	// dialectEnv names the dialect the reference follows against Pi; by
	// default the one Pi's hello states (the line of the release loaded).
	dialectEnv = "PICONFORM_DIALECT"
	jobsEnv    = "PICONFORM_PERTURB_JOBS"
	outEnv     = "PICONFORM_PERTURB_OUT"
	respEnv    = "PICONFORM_PERTURB_RESPONSES"
)

// Finding classes. Agreement is either both giving the same output or both
// failing.
const (
	refRefuses = "pi-result/ref-error" // the reference is stricter than Pi
	// refRefusesThrow: Pi throws, and the reference refuses the input
	// instead of answering the expected failure.
	refRefusesThrow = "pi-throws/ref-error"
	refAccepts      = "pi-error/ref-result" // the reference is more lenient than Pi
	outDiffers      = "outputs-differ"
	piBroke         = "pi-broke" // the adapter crashed or timed out
	// notModelled is a refusal the reference gives on purpose: Pi's output
	// would depend on a path the reference does not model (spec
	// input.strict, item 6). It is listed, and fails nothing.
	notModelled = "not-modelled"
)

type finding struct {
	Case    string `json:"case"`
	Pointer string `json:"pointer"`
	Change  string `json:"change"`
	Class   string `json:"class"`
	Detail  string `json:"detail"`
	Input   string `json:"input,omitempty"`
}

// job is one perturbed input, or, with response set, one perturbed server
// response of a wire case (v.Input is then the whole response).
type job struct {
	c        *suite.Case
	v        perturb.Variant
	response bool
}

func envInt(t *testing.T, name string, def int) int {
	s := os.Getenv(name)
	if s == "" {
		return def
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 {
		t.Fatalf("%s=%q: want a positive integer", name, s)
	}
	return n
}

// wanted reports whether v makes one of the changes PICONFORM_PERTURB_CHANGES
// lists (any, when it is not set).
func wanted(v perturb.Variant) bool {
	list := os.Getenv(changeEnv)
	return list == "" || slices.Contains(strings.Split(list, ","), v.Change)
}

// selectCases picks the cases of dialect d to perturb.
func selectCases(t *testing.T, all []*suite.Case, d dialect.Dialect) []*suite.Case {
	want := strings.Split(os.Getenv(kindsEnv), ",")
	glob := os.Getenv(casesEnv)
	every := envInt(t, wireEnv, 10)
	offset := 0
	if os.Getenv(offsetEnv) != "" {
		offset = envInt(t, offsetEnv, 1) % every
	}
	var out []*suite.Case
	wireSeen := 0
	for _, c := range all {
		if want[0] != "" && !slices.Contains(want, c.Kind) || !c.HoldsIn(d) {
			continue
		}
		if glob != "" {
			if ok, err := path.Match(glob, c.ID); err != nil || !ok {
				continue
			}
		}
		if c.Kind == "wire" {
			wireSeen++
			if glob == "" && (wireSeen-1)%every != offset {
				continue
			}
		}
		out = append(out, c)
	}
	return out
}

// skipPointer leaves alone what is not input to Pi's functions but tells
// the adapter what to set up: a wire case's options that configure the
// loopback transport, a normalize case's tool-call id normalizer, and a
// pipeline case's description of its hooks (the messages a transform
// appends are Pi's input, and are perturbed).
//
// A wire case's options that hold env are not replaced whole either: without
// them Bedrock's credential chain falls back to the machine (the process
// environment, the EC2 instance metadata service), which the reference
// never reads.
func skipPointer(c *suite.Case) func(string) bool {
	switch c.Kind {
	case "wire":
		options, _ := c.Input.Get("options")
		_, hasEnv := jsonv.Spread(options).Get("env")
		return func(p string) bool {
			return p == "/options/env" || strings.HasPrefix(p, "/options/env/") || p == "/model/baseUrl" || p == "/call" ||
				p == "/options" && hasEnv
		}
	case "normalize":
		return func(p string) bool {
			return p == "/toolCallIdNormalizer" || strings.HasPrefix(p, "/toolCallIdNormalizer/")
		}
	case "pipeline":
		return func(p string) bool {
			return p == "/convert" || strings.HasPrefix(p, "/convert/") || p == "/transform" ||
				p == "/transform/append" || p == "/transform/keepLast" || p == "/transform/fail"
		}
	}
	return nil
}

// withResponse is c with its server response replaced.
func withResponse(c *suite.Case, response jsonv.Value) *suite.Case {
	members := slices.Clone(c.Raw.Members())
	for i := range members {
		if members[i].Key == "response" {
			members[i].Value = response
		}
	}
	rc := *c
	rc.Raw = jsonv.ObjectValue(members...)
	return &rc
}

// piThrew reports whether Pi's answer stands for an exception in Pi: an
// error frame; a pipeline case's {"error"} output, which is how the adapter
// reports the agent loop rejecting before its request; a {"throws"} output
// (protocol.Throws), the expected failure of every other pure kind; or a
// wire case's message that stopped with an error, which is how Pi's stream
// functions report an exception (the reference answers an input it
// refuses with an input error, where a response it cannot use gives such a
// message too).
// expectedFailure reports whether Pi's answer is a {"throws"} output.
func expectedFailure(r subject.Reply) bool {
	_, threw := r.Output.Get("throws")
	return r.Type == subject.ReplyResult && threw
}

func piThrew(kind string, r subject.Reply) bool {
	if r.Type == subject.ReplyError {
		return true
	}
	if r.Type != subject.ReplyResult {
		return false
	}
	if expectedFailure(r) {
		return true
	}
	switch kind {
	case "pipeline":
		_, failed := r.Output.Get("error")
		return failed
	case "wire":
		msg, _ := r.Output.Get("message")
		stop, _ := msg.Get("stopReason")
		if stop.Kind() == jsonv.String && stop.Str() == "error" {
			return true
		}
		// With the signal already fired, a stream function reports an
		// exception as an abort; its text is then not the API's abort
		// error but the exception's (V8's TypeError wording, an SDK's
		// validation).
		text, _ := msg.Get("errorMessage")
		api, _ := msg.Get("api")
		return stop.Kind() == jsonv.String && stop.Str() == "aborted" && text.Kind() == jsonv.String &&
			(v8TypeError.MatchString(text.Str()) || api.Kind() == jsonv.String && !slices.Contains(conformance.AbortTexts(api.Str()), text.Str()))
	}
	return false
}

// v8TypeError matches the wording of the TypeErrors V8 throws when code
// reads a member of undefined or null, or calls what is not a function.
var v8TypeError = regexp.MustCompile(`^Cannot read properties of (undefined|null)|is not a function$|is not iterable|^Cannot convert undefined or null`)

// answer runs one input through a subject, setting up the kind's fixture
// (a wire case's loopback server) around it. For a wire case it also
// returns how the requests sent differ from the case's cassette: a
// perturbed input's request differs by design, and two implementations
// that agree send the same request, so they differ from it alike.
func answer(ctx context.Context, s subject.Subject, fx run.Fixture, c *suite.Case, input jsonv.Value) (subject.Reply, string, error) {
	var check func() error
	if fx != nil {
		pc := *c
		pc.Input = input
		in, chk, err := fx.Setup(ctx, &pc, func(error) {}) // a refused request shows in the check
		if err != nil {
			return subject.Reply{Type: subject.ReplyError, Message: "setup: " + err.Error()}, "", nil
		}
		input, check = in, chk
	}
	rctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	reply, err := s.Run(rctx, subject.Case{ID: c.ID, Kind: c.Kind, Input: input})
	if check == nil {
		return reply, "", err
	}
	var requests string
	if cerr := check(); cerr != nil {
		var re *wire.RequestError
		if errors.As(cerr, &re) {
			requests = compare.FormatDiffs(re.Diffs, 0) + strings.Join(re.Problems, "\n")
		} else {
			requests = cerr.Error()
		}
	}
	// Each answer has a loopback server of its own: a request that goes to
	// it by a URL Pi builds names its port, which says nothing of Pi; and a
	// UUID drawn at random (a request id; version 4, or 7 in Pi 1.6) is
	// new each time.
	requests = loopbackPort.ReplaceAllString(requests, "127.0.0.1:PORT")
	requests = drawnUUID.ReplaceAllString(requests, wire.DrawnUUID)
	return reply, drawnUUIDv7.ReplaceAllString(requests, wire.DrawnUUIDv7), err
}

var (
	loopbackPort = regexp.MustCompile(`127\.0\.0\.1:[0-9]+`)
	drawnUUID    = regexp.MustCompile(`(?i)[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}`)
	drawnUUIDv7  = regexp.MustCompile(`(?i)[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}`)
)

func classify(c *suite.Case, v perturb.Variant, ref, pi subject.Reply, refReq, piReq string, piErr error) *finding {
	f := &finding{Case: c.ID, Pointer: v.Pointer, Change: v.Change}
	switch {
	case piErr != nil && ref.Type == subject.ReplyError:
		return nil // the adapter died of the input (an SDK's unhandled rejection): Pi threw
	case piErr != nil:
		f.Class, f.Detail = piBroke, piErr.Error()
	case pi.Type == subject.ReplySkip || ref.Type == subject.ReplySkip:
		return nil
	case expectedFailure(pi) && ref.Type == subject.ReplyError && c.Kind != "wire":
		// Pi throws, and the kind has the form to say so: the reference
		// must answer that failure, not refuse the input, or no case
		// could hold it. (A wire case has the form for a transcript Pi 1.6
		// cannot read and for what streamSimple throws, a missing key among
		// them; the reference may still refuse other calls that throw.)
		f.Class, f.Detail = refRefusesThrow, ref.Message+"\npi: "+compare.Render(pi.Output)
	case piThrew(c.Kind, pi) && ref.Type == subject.ReplyError:
		return nil
	case pi.Type == subject.ReplyResult && ref.Type == subject.ReplyError:
		f.Class, f.Detail = refRefuses, ref.Message+"\npi: "+compare.Render(pi.Output)
		if strings.Contains(ref.Message, "not modelled") || strings.Contains(ref.Message, "outside the modelled") {
			f.Class = notModelled
		}
	case pi.Type == subject.ReplyError && ref.Type == subject.ReplyResult:
		f.Class, f.Detail = refAccepts, pi.Message
	default:
		diffs := compare.Diffs(pi.Output, ref.Output, compare.Rules{Redactions: c.Redactions})
		diffs = slices.DeleteFunc(diffs, func(d compare.Diff) bool { return clockDiff(c.Kind, d) || generatedIDDiff(d) })
		outputs := "-pi +reference\n" + compare.FormatDiffs(diffs, 5)
		if refReq != piReq {
			// The outputs too: where Pi sent less than the reference, its
			// answer says why (a connection error, say).
			f.Class, f.Detail = outDiffers, "requests differ from the cassette:\npi:\n"+piReq+"\nreference:\n"+refReq+"\noutputs:\n"+outputs
			break
		}
		if len(diffs) == 0 {
			return nil
		}
		f.Class, f.Detail = outDiffers, outputs
	}
	f.Input = string(v.Input.AppendJSON(nil))
	return f
}

// clockDiff reports a difference that is only the clock: a perturbation
// can leave a tool call without its result, and the synthetic result that
// normalization adds is stamped with the time, which the case's redactions
// do not expect there; and in Pi 1.6 a perturbed tool, or a transcript
// perturbed into declaring other tools, makes the agent loop append a
// system message stamped with the time, or moves the one a case redacts.
func clockDiff(kind string, d compare.Diff) bool {
	if d.Want.Kind() != jsonv.Number || d.Got.Kind() != jsonv.Number {
		return false
	}
	switch pattern := perturb.Pattern(d.Path); kind {
	case "normalize":
		return pattern == "/messages/*/timestamp"
	case "pipeline":
		return pattern == "/context/messages/*/timestamp" || pattern == "/transcript/*/timestamp"
	}
	return false
}

// generatedIDDiff reports a difference that is only a tool-call id Google's
// stream parsers make up when the server names none ("<name>_<ms>_<n>", a
// clock and a process-wide counter). A case redacts it where its own output
// has it; a perturbation can move it elsewhere (into an error event's
// message when the perturbed input makes the stream fail after the call).
func generatedIDDiff(d compare.Diff) bool {
	if !strings.HasSuffix(d.Path, "/id") || d.Want.Kind() != jsonv.String || d.Got.Kind() != jsonv.String {
		return false
	}
	want, got := generatedID.FindStringSubmatch(d.Want.Str()), generatedID.FindStringSubmatch(d.Got.Str())
	return want != nil && got != nil && want[1] == got[1]
}

var generatedID = regexp.MustCompile(`^(.*)_[0-9]{13}_[0-9]+$`)

// timing reports a variant whose outcome is a matter of time, not of
// what Pi does with the input:
//   - a timeout of a few milliseconds (0 and 7 here) fires before or during
//     the exchange as the event loop has it, which no implementation can
//     reproduce;
//   - in a case whose server asks for a wait before a retry, maxRetryDelayMs
//     caps that wait (60 s in wire/openai-codex-responses-retry-then-answer);
//     changed, it no longer caps it, and Pi waits longer than a perturbed
//     input's deadline before giving the answer the reference gives
//     (checked once with a deadline of 150 s);
//   - maxRetries made (or added as) 7 in a codex case whose server fails:
//     Pi waits 1 s doubling between attempts, 127 s in all, past that
//     deadline.
func timing(c *suite.Case, v perturb.Variant) bool {
	switch v.Pointer {
	case "/options/timeoutMs", "/options/websocketConnectTimeoutMs":
		return strings.HasSuffix(v.Change, "zero") || strings.HasSuffix(v.Change, "number")
	case "/options/maxRetryDelayMs":
		response, _ := c.Raw.Get("response")
		text := strings.ToLower(string(response.AppendJSON(nil)))
		return strings.Contains(text, `"retry-after`)
	case "/options/maxRetries":
		return strings.HasSuffix(v.Change, "number") && wire.CaseAPI(c) == "openai-codex-responses"
	}
	return false
}

// optionNames are the options members the APIs read (pi-ai's
// StreamOptions and each API's own), but the key (the runner's), env
// (Bedrock's credentials) and the callbacks, which JSON cannot hold.
var optionNames = []string{
	"temperature", "maxTokens", "transport", "cacheRetention", "sessionId", "headers", "timeoutMs",
	"websocketConnectTimeoutMs", "maxRetries", "maxRetryDelayMs", "metadata",
	"toolChoice", "thinkingEnabled", "thinkingBudgetTokens", "effort", "interleavedThinking", "thinkingDisplay",
	"reasoningEffort", "reasoningSummary", "serviceTier", "textVerbosity", "thinking", "promptMode",
	"azureApiVersion", "azureBaseUrl", "azureDeploymentName", "azureResourceName", "bearerToken",
	"location", "project", "region", "profile", "requestMetadata",
	"reasoning", "thinkingBudgets", // streamSimple's
}

// piDialect is the dialect the reference follows against the Pi that cmd
// starts: PICONFORM_DIALECT, or else the one Pi's hello states.
func piDialect(t *testing.T, cmd, root string) dialect.Dialect {
	if name := os.Getenv(dialectEnv); name != "" {
		d, err := dialect.Parse(name)
		if err != nil {
			t.Fatalf("%s: %v", dialectEnv, err)
		}
		return d
	}
	pi := &subject.Process{Command: cmd, Dir: root}
	defer pi.Close()
	hello, err := pi.Start(context.Background())
	if err != nil {
		t.Fatalf("start %s: %v", cmd, err)
	}
	for _, name := range hello.Dialects {
		if d, err := dialect.Parse(name); err == nil {
			t.Logf("%s %s follows dialect %s", hello.Name, hello.Version, d)
			return d
		}
	}
	t.Fatalf("%s %s states no dialect this piconform knows (%v); set %s", hello.Name, hello.Version, hello.Dialects, dialectEnv)
	return 0
}

// inDialect runs every case in dialect d, as the runner's run frames name it.
type inDialect struct {
	subject.Subject
	d dialect.Dialect
}

func (s inDialect) Run(ctx context.Context, c subject.Case) (subject.Reply, error) {
	c.Dialect = s.d.String()
	return s.Subject.Run(ctx, c)
}

// piCommand is the command that starts Pi (PICONFORM_PI) and the
// repository's root; it skips t when PICONFORM_PI is not set, saying that
// it would run what.
func piCommand(t *testing.T, what string) (cmd, root string) {
	cmd = os.Getenv(piEnv)
	if cmd == "" {
		t.Skipf("set %s=1 to %s against the real Pi (adapters/pi-ts)", piEnv, what)
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	if cmd == "1" {
		cmd = filepath.Join(root, "adapters/pi-ts/run.sh")
	}
	return cmd, root
}

func TestAgainstPi(t *testing.T) {
	cmd, root := piCommand(t, "run the perturbations")
	s, err := kinds.Load(".", os.DirFS(root), ".")
	if err != nil {
		t.Fatal(err)
	}
	d := piDialect(t, cmd, root)
	cases := selectCases(t, s.Cases, d)
	// What every case's server sends: a response perturbation also gives
	// each answer the members the others have at the same place
	// (Borrowed). Events are told apart by name and type, not by API, so
	// the APIs that share a stream format share their members too.
	sent := perturb.Members{}
	for _, c := range s.Cases {
		if response, ok := c.Raw.Get("response"); ok && c.Kind == "wire" {
			sent.Gather(response)
		}
	}
	var jobs []job
	withAdded := map[string]bool{}
	for _, c := range cases {
		if os.Getenv(respEnv) != "" {
			// A case that aborts after some events holds its response open
			// until then; an event perturbed out of the count leaves both
			// sides waiting out the deadline. A replay cut into pieces is
			// about reading, which the whole replay of its events covers,
			// and takes Pi seconds an input.
			_, aborts := c.Input.Get("abort")
			_, split := c.Raw.Get("replay")
			if response, ok := c.Raw.Get("response"); ok && c.Kind == "wire" && !aborts && !split {
				variants := append(perturb.Variants(response, nil), perturb.Borrowed(response, sent)...)
				for _, v := range variants {
					if strings.Contains(v.Pointer, "/data/") && wanted(v) {
						v.Pointer = "/response" + v.Pointer
						jobs = append(jobs, job{c, v, true})
					}
				}
			}
			continue
		}
		for _, v := range perturb.Variants(c.Input, skipPointer(c)) {
			if !timing(c, v) && wanted(v) {
				jobs = append(jobs, job{c, v, false})
			}
		}
		// The first selected wire case of each API also gets every option
		// member it lacks, of every type.
		if api := wire.CaseAPI(c); c.Kind == "wire" && !withAdded[api] {
			withAdded[api] = true
			for _, v := range perturb.Added(c.Input, "options", optionNames) {
				if !timing(c, v) && wanted(v) {
					jobs = append(jobs, job{c, v, false})
				}
			}
		}
	}
	t.Logf("%d cases, %d perturbed inputs", len(cases), len(jobs))

	var (
		mu       sync.Mutex
		findings []finding
		next     int
		done     int
		lastLog  = time.Now()
	)
	ctx := context.Background()
	var wg sync.WaitGroup
	for range envInt(t, jobsEnv, 2) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			pi := &subject.Process{Command: cmd, Dir: root}
			if _, err := pi.Start(ctx); err != nil {
				t.Errorf("start %s: %v", cmd, err)
				return
			}
			defer pi.Close()
			ref := inDialect{&subject.Reference{}, d}
			fixtures := kinds.Builtin.Fixtures(kinds.FixtureOptions{Dialect: d})
			for {
				mu.Lock()
				if next == len(jobs) {
					mu.Unlock()
					return
				}
				j := jobs[next]
				next++
				mu.Unlock()
				fx := fixtures[j.c.Kind]
				c, input := j.c, j.v.Input
				if j.response {
					c, input = withResponse(j.c, j.v.Input), j.c.Input
				}
				f, unconfirmed, _, err := compareConfirmed(ctx, ref, pi, fx, c, input, j.v)
				if err != nil {
					t.Error(err)
					return
				}
				mu.Lock()
				if f != nil {
					findings = append(findings, *f)
				}
				logUnconfirmed(t, unconfirmed)
				done++
				// Progress at least every 10 s (go test -v prints it as it
				// comes), so a long run in CI is never silent.
				if done%1000 == 0 || time.Since(lastLog) >= 10*time.Second {
					lastLog = time.Now()
					t.Logf("%d/%d inputs, %d findings", done, len(jobs), len(findings))
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	report(t, len(jobs), findings)
}

// compareConfirmed is compareOnce with a finding confirmed by a second
// run: a difference in behaviour shows again, where one that came of the
// machine's load (an abort landing before Pi's request on a busy runner, a
// loopback connection refused) does not. A finding the second run does not
// show is returned as unconfirmed, to be logged, and fails nothing.
func compareConfirmed(ctx context.Context, ref subject.Subject, pi *subject.Process, fx run.Fixture, c *suite.Case, input jsonv.Value, v perturb.Variant) (f, unconfirmed *finding, out jsonv.Value, err error) {
	f, out, err = compareOnce(ctx, ref, pi, fx, c, input, v)
	if err != nil || f == nil || f.Class == notModelled {
		return f, nil, out, err
	}
	again, _, err := compareOnce(ctx, ref, pi, fx, c, input, v)
	if err != nil || again != nil {
		return f, nil, out, err
	}
	return nil, f, out, nil
}

func logUnconfirmed(t *testing.T, f *finding) {
	if f != nil {
		t.Logf("not confirmed by a second run (timing): %s %s %s\n%s", f.Case, f.Pointer, f.Change, f.Detail)
	}
}

// compareOnce runs input as case c through the reference and Pi, and
// returns the finding for variant v, if any, and the reference's output.
// Its error is Pi's process failing to start again after it broke.
func compareOnce(ctx context.Context, ref subject.Subject, pi *subject.Process, fx run.Fixture, c *suite.Case, input jsonv.Value, v perturb.Variant) (*finding, jsonv.Value, error) {
	refReply, refReq, err := answer(ctx, ref, fx, c, input)
	if err != nil {
		refReply = subject.Reply{Type: subject.ReplyError, Message: err.Error()}
	}
	piReply, piReq, piErr := answer(ctx, pi, fx, c, input)
	if piErr != nil {
		if _, err := pi.Start(ctx); err != nil {
			return nil, jsonv.Value{}, fmt.Errorf("restart %s: %w", pi.Command, err)
		}
	}
	return classify(c, v, refReply, piReply, refReq, piReq, piErr), refReply.Output, nil
}

// report logs the findings grouped by kind, field pattern, change and class,
// writes them all to PICONFORM_PERTURB_OUT, and fails the test when there is
// any.
func report(t *testing.T, inputs int, findings []finding) {
	sort.Slice(findings, func(i, j int) bool {
		a, b := findings[i], findings[j]
		if a.Case != b.Case {
			return a.Case < b.Case
		}
		return a.Pointer < b.Pointer
	})
	if out := os.Getenv(outEnv); out != "" {
		var b strings.Builder
		for _, f := range findings {
			line, _ := json.Marshal(f)
			b.Write(line)
			b.WriteByte('\n')
		}
		if err := os.WriteFile(out, []byte(b.String()), 0o644); err != nil {
			t.Error(err)
		}
	}
	classes := map[string]int{}
	groups := map[string][]finding{}
	for _, f := range findings {
		classes[f.Class]++
		kind, _, _ := strings.Cut(f.Case, "/")
		key := fmt.Sprintf("%s %s %s %s", f.Class, kind, perturb.Pattern(f.Pointer), f.Change)
		groups[key] = append(groups[key], f)
	}
	keys := make([]string, 0, len(groups))
	for k := range groups {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		g := groups[k]
		t.Logf("%s: %d (e.g. %s: %s)", k, len(g), g[0].Case, firstLine(g[0].Detail))
	}
	// A few findings are shown whole: a CI log may be all there is of them.
	if len(findings) <= 10 {
		for _, f := range findings {
			t.Logf("%s %s %s %s:\n%s\ninput: %s", f.Class, f.Case, f.Pointer, f.Change, f.Detail, f.Input)
		}
	}
	t.Logf("%d inputs; %d %s, %d %s, %d %s, %d %s, %d %s, %d %s", inputs,
		classes[refRefuses], refRefuses, classes[refRefusesThrow], refRefusesThrow, classes[refAccepts], refAccepts,
		classes[outDiffers], outDiffers, classes[piBroke], piBroke, classes[notModelled], notModelled)
	if n := len(findings) - classes[notModelled]; n > 0 {
		t.Errorf("%d inputs on which the reference and Pi disagree", n)
	}
}

func firstLine(s string) string {
	lines := strings.Split(s, "\n")
	if len(lines) > 2 {
		return lines[0] + " " + lines[1] + " " + lines[2]
	}
	return strings.Join(lines, " ")
}
