package provider

import (
	"io"
	"iter"

	"github.com/piconform/piconform/reference/ai"
	"github.com/piconform/piconform/reference/dialect"
	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/transform"
)

// Transcript is a context's messages read one at a time; an error ends it
// (a transcript that could not be read, not one Pi refuses).
type Transcript = iter.Seq2[ai.Message, error]

// TranscriptOf is msgs as a Transcript.
func TranscriptOf(msgs []ai.Message) Transcript {
	return func(yield func(ai.Message, error) bool) {
		for _, m := range msgs {
			if !yield(m, nil) {
				return
			}
		}
	}
}

// Tap is msgs with see called on each message as it is read, for what a
// request needs of the whole transcript besides its body (such as GitHub
// Copilot's headers).
func Tap(msgs Transcript, see func(ai.Message)) Transcript {
	return func(yield func(ai.Message, error) bool) {
		for m, err := range msgs {
			if err == nil {
				see(m)
			}
			if !yield(m, err) {
				return
			}
		}
	}
}

// BodySink takes a request body in the order its JSON is written: the
// members before the message array and the array's name, each element of
// the array, then the members after it. A driver that streams hands each
// element over as soon as nothing that comes later can change it, so a
// sink that writes need not hold the transcript or the body.
type BodySink interface {
	Begin(head []jsonv.Member, key string)
	Element(v jsonv.Value)
	End(tail []jsonv.Member)
}

// BodyTree is the BodySink that keeps the whole body, for BuildRequest.
type BodyTree struct {
	members []jsonv.Member
	key     string
	elems   []jsonv.Value
}

func (t *BodyTree) Begin(head []jsonv.Member, key string) {
	t.members, t.key = append(t.members, head...), key
}

func (t *BodyTree) Element(v jsonv.Value) { t.elems = append(t.elems, v) }

func (t *BodyTree) End(tail []jsonv.Member) {
	t.members = append(append(t.members, jsonv.Member{Key: t.key, Value: jsonv.ArrayValue(t.elems...)}), tail...)
	t.elems = nil
}

// Value is the body.
func (t *BodyTree) Value() jsonv.Value { return jsonv.ObjectValue(t.members...) }

// BodyWriter is the BodySink that writes the body's JSON as it comes, the
// bytes Value.AppendJSON writes for the whole body, through a buffer that
// holds about one element.
type BodyWriter struct {
	w     io.Writer
	buf   []byte
	elems int
	err   error
}

// NewBodyWriter writes to w; Flush when the driver is done.
func NewBodyWriter(w io.Writer) *BodyWriter { return &BodyWriter{w: w} }

// flushAt is how much BodyWriter gathers before it writes.
const flushAt = 32 << 10

func (b *BodyWriter) Begin(head []jsonv.Member, key string) {
	b.buf = b.members(append(b.buf, '{'), head)
	if present(head) {
		b.buf = append(b.buf, ',')
	}
	b.buf = append(jsonv.AppendString(b.buf, key), ':', '[')
	b.spill(flushAt)
}

func (b *BodyWriter) Element(v jsonv.Value) {
	if b.elems > 0 {
		b.buf = append(b.buf, ',')
	}
	b.elems++
	if v.IsAbsent() {
		v = jsonv.NullValue() // JSON.stringify writes undefined in an array as null
	}
	b.buf = v.AppendJSON(b.buf)
	b.spill(flushAt)
}

func (b *BodyWriter) End(tail []jsonv.Member) {
	b.buf = append(b.buf, ']')
	if present(tail) {
		b.buf = append(b.buf, ',')
	}
	b.buf = append(b.members(b.buf, tail), '}')
	b.spill(flushAt)
}

// members appends ms as an object's members, leaving Absent ones out.
func (b *BodyWriter) members(dst []byte, ms []jsonv.Member) []byte {
	n := 0
	for _, m := range ms {
		if m.Value.IsAbsent() {
			continue
		}
		if n > 0 {
			dst = append(dst, ',')
		}
		n++
		dst = append(jsonv.AppendString(dst, m.Key), ':')
		dst = m.Value.AppendJSON(dst)
	}
	return dst
}

// spill writes the buffer out once it holds at least n bytes, keeping the
// first write error (after which nothing more is written).
func (b *BodyWriter) spill(n int) {
	if len(b.buf) >= n && len(b.buf) > 0 {
		if b.err == nil {
			_, b.err = b.w.Write(b.buf)
		}
		b.buf = b.buf[:0]
	}
}

// Flush writes out what is buffered and reports the first write error.
func (b *BodyWriter) Flush() error {
	b.spill(0)
	return b.err
}

// present reports whether any of ms is written.
func present(ms []jsonv.Member) bool {
	for _, m := range ms {
		if !m.Value.IsAbsent() {
			return true
		}
	}
	return false
}

// TeeBody hands a body on to a sink and writes its JSON to a writer that
// cannot fail as it goes, for a request that needs something of the
// body's bytes (its size, its hash) without holding them.
type TeeBody struct {
	BodySink
	w *BodyWriter
}

// NewTeeBody hands the body on to sink and writes it to w.
func NewTeeBody(sink BodySink, w io.Writer) *TeeBody {
	return &TeeBody{BodySink: sink, w: NewBodyWriter(w)}
}

func (t *TeeBody) Begin(head []jsonv.Member, key string) {
	t.BodySink.Begin(head, key)
	t.w.Begin(head, key)
}

func (t *TeeBody) Element(v jsonv.Value) {
	t.BodySink.Element(v)
	t.w.Element(v)
}

func (t *TeeBody) End(tail []jsonv.Member) {
	t.BodySink.End(tail)
	t.w.End(tail)
	t.w.Flush()
}

// StreamBuild is how a driver builds its request (Driver.Build): with the
// messages read from msgs (ctx.Messages is not read) and the body handed
// to body instead of returned in the Call.
type StreamBuild func(model *ai.Model, ctx *ai.Context, msgs Transcript, opts Options, now transform.Clock, body BodySink) (*Call, error)

// Streamer adapts a provider's build, whose options are O, to StreamBuild.
func Streamer[O any, P interface {
	*O
	Options
}](build func(model *ai.Model, ctx *ai.Context, msgs Transcript, opts O, now transform.Clock, body BodySink) (*Call, error)) StreamBuild {
	return func(model *ai.Model, ctx *ai.Context, msgs Transcript, opts Options, now transform.Clock, body BodySink) (*Call, error) {
		o, err := own[O, P](opts)
		if err != nil {
			return nil, err
		}
		return build(model, ctx, msgs, o, now, body)
	}
}

// BuildRequest returns the request Pi sends for model, ctx and opts (the
// driver's own Options), with its whole body. now stamps what transform
// adds. A *stream.RequestError means Pi sends nothing and fails the stream
// with its message (see Refusal).
func (d Driver) BuildRequest(model *ai.Model, ctx *ai.Context, opts Options, now transform.Clock) (*Call, error) {
	var tree BodyTree
	call, err := d.build(model, ctx, TranscriptOf(ctx.Messages), opts, now, &tree)
	if err != nil {
		return nil, err
	}
	call.Body = tree.Value()
	return call, nil
}

// WriteRequest is BuildRequest for a transcript too long to hold at once:
// it reads the context's messages from msgs instead of ctx.Messages and
// writes the body to w as it is built, returning the Call without it. It
// holds only the messages a later one can still change. It writes the
// bytes BuildRequest's Body.AppendJSON gives, or fails with BuildRequest's
// error; then what was written is not a body: Pi sends nothing.
func (d Driver) WriteRequest(model *ai.Model, ctx *ai.Context, msgs Transcript, opts Options, now transform.Clock, w io.Writer) (*Call, error) {
	bw := NewBodyWriter(w)
	call, err := d.build(model, ctx, msgs, opts, now, bw)
	if err != nil {
		return nil, err
	}
	return call, bw.Flush()
}

// build is d.Build, with an exception the builder throws (a stream.JSError
// panic: a value ToString cannot convert) made the refusal it is in Pi,
// whose stream function catches it before anything is sent. A client
// that counts its retries from maxRetries before its first HTTP request
// throws there too (MaxRetries); one that reads it only after a failed
// attempt (Retry.LateLimit) does not. A WebSocket handshake comes before
// that count, so a driver with one answers for it (Call.Unsent).
func (d Driver) build(model *ai.Model, ctx *ai.Context, msgs Transcript, opts Options, now transform.Clock, body BodySink) (call *Call, err error) {
	defer catchJSError(&err)
	call, err = d.Build(model, ctx, msgs, opts, now, body)
	if r := d.At(opts.Shared().Dialect).Retry; err == nil && call.Handshake == nil && !r.LateLimit {
		r.Retries(opts.Shared())
	}
	return call, err
}

// firstThrow keeps the error Pi throws first for a transcript read one
// message at a time. Pi runs each of its checks over the whole transcript
// before the next step, and converts only after them all: an error of a
// later step is kept until the transcript ends, in case a later message
// fails an earlier step. Steps are ranked from 0, in Pi's order.
type firstThrow struct {
	err  error
	rank int
}

// Note keeps err, of the step ranked rank, if no error of that step or an
// earlier one is kept yet.
func (f *firstThrow) Note(rank int, err error) {
	if err != nil && (f.err == nil || rank < f.rank) {
		f.err, f.rank = err, rank
	}
}

// Moot reports whether the step ranked rank can no longer change the
// outcome: an error of it or an earlier step is kept.
func (f *firstThrow) Moot(rank int) bool { return f.err != nil && f.rank <= rank }

// Err is the error kept.
func (f *firstThrow) Err() error { return f.err }

// Steps are an API's way from a context's messages to its own, as Pi
// takes it: checks that refuse what Pi throws on, transformMessages, then
// the API's conversion of each message transformMessages gives.
type Steps struct {
	// Dialect is the Pi release line whose transformMessages runs.
	Dialect dialect.Dialect
	// Checks are ranked from 0 in the order Pi runs them, each over the
	// whole transcript before the next (TransformCheck is the usual one).
	Checks []func(m ai.Message, i int) error
	// Prepare, when set, rewrites each message after the checks read it
	// and before transformMessages does, for an API that changes what
	// transform gets where Pi's normalizer cannot.
	Prepare func(ai.Message) ai.Message
	// Normalize is transformMessages' tool-call id normalizer (nil keeps
	// the ids).
	Normalize transform.IDNormalizer
	// Pending is an error Pi raises after the checks and before it
	// converts anything (nil: none): a check's error still wins over it,
	// and nothing is converted.
	Pending error
	// Convert takes each message transformMessages gives, and Close (when
	// set) is called after the last one.
	Convert func(ai.Message) error
	Close   func() error
}

// Run reads msgs one message at a time through the steps for model; now
// stamps what transform adds. Pi finishes each step before the next, so
// the error is the first of the earliest step that fails, whatever
// message comes first: Pending ranks after every check, Convert's errors
// after Pending, and Close is called only when no error is kept. A reading error of msgs
// ends it at once.
func (s Steps) Run(msgs Transcript, model *ai.Model, now transform.Clock) error {
	var throw firstThrow
	throw.Note(len(s.Checks), s.Pending)
	converting := len(s.Checks) + 1
	ts := transform.NewStreamIn(s.Dialect, model, s.Normalize, now, func(m ai.Message) {
		if !throw.Moot(converting) {
			throw.Note(converting, s.Convert(m))
		}
	})
	i := 0
	for m, err := range msgs {
		if err != nil {
			return err
		}
		for rank, check := range s.Checks {
			if throw.Moot(rank) {
				break
			}
			throw.Note(rank, check(m, i))
		}
		if !throw.Moot(converting) {
			if s.Prepare != nil {
				m = s.Prepare(m)
			}
			ts.Push(m)
		}
		i++
	}
	if !throw.Moot(converting) {
		ts.Close()
	}
	if !throw.Moot(converting) && s.Close != nil {
		throw.Note(converting, s.Close())
	}
	return throw.Err()
}

// TransformCheck refuses a message of the context where transformMessages
// of dialect d throws for model, with a normalizer that throws on the ids
// idThrows reports (transform.CheckMessageIn).
func TransformCheck(d dialect.Dialect, model *ai.Model, idThrows func(id jsonv.Value) bool) func(m ai.Message, i int) error {
	return func(m ai.Message, i int) error {
		return transform.CheckMessageIn(d, m, i, model, idThrows, "/context/messages")
	}
}
