package eventstream

import (
	"bytes"
	"encoding/hex"
	"errors"
	"testing"
)

// knownFrame is the messageStart frame that the bedrock capture script
// (reference/provider/bedrock/testdata/frames.mjs, CRCs from Node's
// zlib.crc32) served to real Pi, whose SDK decoded it: headers
// :event-type, :content-type, :message-type and the payload
// {"role":"assistant"}.
const knownFrame = "000000760000005296d5fade0b3a6576656e742d7479706507000c6d65737361676553746172740d3a636f6e74656e742d747970650700106170706c69636174696f6e2f6a736f6e0d3a6d6573736167652d747970650700056576656e747b22726f6c65223a22617373697374616e74227d6fa8c599"

func TestEncodeDecode(t *testing.T) {
	m := Message{Headers: []Header{String(":event-type", "messageStart"), {Name: "n", Type: TypeInt, Value: []byte{0, 0, 0, 7}}, {Name: "t", Type: TypeTrue}}, Payload: []byte(`{"role":"assistant"}`)}
	frame := Encode(m)
	got, n, err := Decode(frame)
	if err != nil || n != len(frame) {
		t.Fatalf("Decode: %v, %d of %d", err, n, len(frame))
	}
	if v, _ := got.Get(":event-type"); v != "messageStart" || len(got.Headers) != 3 || !bytes.Equal(got.Payload, m.Payload) {
		t.Errorf("decoded %+v", got)
	}
	var d Decoder
	var all []Message
	two := append(frame, frame...)
	for i := range two {
		ms, err := d.Feed(two[i : i+1])
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, ms...)
	}
	if len(all) != 2 || d.Pending() != 0 {
		t.Errorf("byte by byte: %d messages, %d pending", len(all), d.Pending())
	}
	if s := Split(two); len(s) != 2 || !bytes.Equal(s[0], frame) {
		t.Errorf("Split: %d pieces", len(s))
	}
	if _, _, err := Decode(frame[:10]); !errors.Is(err, ErrTruncated) {
		t.Errorf("cut: %v", err)
	}
	bad := bytes.Clone(frame)
	bad[len(bad)-1] ^= 1
	if _, _, err := Decode(bad); err == nil {
		t.Error("bad checksum accepted")
	}
}

func TestKnownFrame(t *testing.T) {
	want, err := hex.DecodeString(knownFrame)
	if err != nil {
		t.Fatal(err)
	}
	m, _, err := Decode(want)
	if err != nil {
		t.Fatalf("Decode: %v", err)
	}
	if v, _ := m.Get(":message-type"); v != "event" || string(m.Payload) != `{"role":"assistant"}` {
		t.Errorf("decoded %+v", m)
	}
	if got := Encode(m); !bytes.Equal(got, want) {
		t.Errorf("Encode = %x, want %x", got, want)
	}
}
