package conformance

import (
	"bufio"
	"fmt"
	"io"

	"github.com/piconform/piconform/reference/jsonv"
)

// Serve speaks the adapter side of the subprocess protocol (spec/PROTOCOL.md)
// for the reference: a framing loop around Handle. It returns when r ends or
// a bye frame arrives; it returns an error only when the framing itself is
// broken, because then the protocol cannot go on.
func Serve(r io.Reader, w io.Writer, version string, opts Options) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 64<<20)
	bw := bufio.NewWriter(w)
	for sc.Scan() {
		frame, err := jsonv.Parse(sc.Bytes())
		if err != nil {
			return fmt.Errorf("conformance: reading a frame: %w", err)
		}
		typ, _ := frame.Get("type")
		var reply jsonv.Value
		switch typ.Str() {
		case "hello":
			reply = hello(version)
		case "run":
			reply = runFrame(frame, opts)
		case "bye":
			return bw.Flush()
		default:
			return fmt.Errorf("conformance: unknown frame type %q", typ.Str())
		}
		if _, err := bw.Write(append(reply.AppendJSON(nil), '\n')); err != nil {
			return err
		}
		if err := bw.Flush(); err != nil {
			return err
		}
	}
	return sc.Err()
}

func str(s string) jsonv.Value { return jsonv.StringValue(s) }

func stringArray(ss []string) jsonv.Value {
	elems := make([]jsonv.Value, len(ss))
	for i, s := range ss {
		elems[i] = str(s)
	}
	return jsonv.ArrayValue(elems...)
}

func hello(version string) jsonv.Value {
	return object(
		jsonv.Member{Key: "type", Value: str("hello")},
		jsonv.Member{Key: "protocol", Value: jsonv.NumberValue("1")},
		jsonv.Member{Key: "implementation", Value: object(
			jsonv.Member{Key: "name", Value: str("piconform-reference")},
			jsonv.Member{Key: "version", Value: str(version)},
			jsonv.Member{Key: "language", Value: str("go")},
			jsonv.Member{Key: "kinds", Value: stringArray(Kinds())},
			jsonv.Member{Key: "apis", Value: stringArray(APIs())},
		)},
	)
}

func runFrame(frame jsonv.Value, opts Options) jsonv.Value {
	seq, _ := frame.Get("seq")
	c, _ := frame.Get("case")
	kind, _ := c.Get("kind")
	input, _ := c.Get("input")
	out, err := Handle(kind.Str(), input, opts)
	seqM := jsonv.Member{Key: "seq", Value: seq}
	if err != nil {
		return object(jsonv.Member{Key: "type", Value: str("error")}, seqM, jsonv.Member{Key: "message", Value: str(err.Error())})
	}
	return object(jsonv.Member{Key: "type", Value: str("result")}, seqM, jsonv.Member{Key: "output", Value: out})
}
