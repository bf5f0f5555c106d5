// Package eventstream reads and writes AWS's binary event-stream framing
// (content type application/vnd.amazon.eventstream), which Bedrock's
// ConverseStream answers with. Each message is one frame:
//
//	total length (uint32) | headers length (uint32) | CRC32 of those 8 bytes
//	headers | payload | CRC32 of everything before it
//
// All integers are big-endian and the checksums are IEEE CRC32. A header
// is a name (1-byte length), a value type (1 byte) and a value whose
// encoding the type fixes; a string (type 7) has a 2-byte length.
package eventstream

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
)

// Header value types.
const (
	TypeTrue      = 0
	TypeFalse     = 1
	TypeByte      = 2
	TypeShort     = 3
	TypeInt       = 4
	TypeLong      = 5
	TypeBytes     = 6
	TypeString    = 7
	TypeTimestamp = 8
	TypeUUID      = 9
)

// Header is one frame header. Value holds the encoded value bytes (without
// the length prefix of strings and byte arrays).
type Header struct {
	Name  string
	Type  byte
	Value []byte
}

// String returns a string header.
func String(name, value string) Header {
	return Header{Name: name, Type: TypeString, Value: []byte(value)}
}

// Message is one decoded frame.
type Message struct {
	Headers []Header
	Payload []byte
}

// Get returns the value of the first string header called name.
func (m Message) Get(name string) (string, bool) {
	for _, h := range m.Headers {
		if h.Name == name && h.Type == TypeString {
			return string(h.Value), true
		}
	}
	return "", false
}

const (
	preludeLen = 8
	// minFrame is a frame with no headers and no payload.
	minFrame = preludeLen + 4 + 4
)

// Encode writes m as one frame.
func Encode(m Message) []byte {
	var hs []byte
	for _, h := range m.Headers {
		hs = append(hs, byte(len(h.Name)))
		hs = append(hs, h.Name...)
		hs = append(hs, h.Type)
		switch h.Type {
		case TypeBytes, TypeString:
			hs = binary.BigEndian.AppendUint16(hs, uint16(len(h.Value)))
		}
		hs = append(hs, h.Value...)
	}
	total := minFrame + len(hs) + len(m.Payload)
	out := make([]byte, 0, total)
	out = binary.BigEndian.AppendUint32(out, uint32(total))
	out = binary.BigEndian.AppendUint32(out, uint32(len(hs)))
	out = binary.BigEndian.AppendUint32(out, crc32.ChecksumIEEE(out))
	out = append(out, hs...)
	out = append(out, m.Payload...)
	return binary.BigEndian.AppendUint32(out, crc32.ChecksumIEEE(out))
}

// ErrTruncated is returned by Decode when the data ends inside a frame.
var ErrTruncated = errors.New("eventstream: truncated frame")

// Decode reads one frame from the start of data and returns it with the
// number of bytes it took. ErrTruncated means more data is needed.
func Decode(data []byte) (Message, int, error) {
	if len(data) < preludeLen+4 {
		return Message{}, 0, ErrTruncated
	}
	total := int(binary.BigEndian.Uint32(data))
	hlen := int(binary.BigEndian.Uint32(data[4:]))
	if got, want := crc32.ChecksumIEEE(data[:preludeLen]), binary.BigEndian.Uint32(data[preludeLen:]); got != want {
		return Message{}, 0, fmt.Errorf("eventstream: prelude checksum %08x, want %08x", got, want)
	}
	if total < minFrame || hlen > total-minFrame {
		return Message{}, 0, fmt.Errorf("eventstream: frame length %d with %d header bytes", total, hlen)
	}
	if len(data) < total {
		return Message{}, 0, ErrTruncated
	}
	frame := data[:total]
	if got, want := crc32.ChecksumIEEE(frame[:total-4]), binary.BigEndian.Uint32(frame[total-4:]); got != want {
		return Message{}, 0, fmt.Errorf("eventstream: message checksum %08x, want %08x", got, want)
	}
	hs := frame[preludeLen+4 : preludeLen+4+hlen]
	var m Message
	for len(hs) > 0 {
		n := int(hs[0])
		if len(hs) < 2+n {
			return Message{}, 0, errors.New("eventstream: header cut short")
		}
		h := Header{Name: string(hs[1 : 1+n]), Type: hs[1+n]}
		hs = hs[2+n:]
		var size int
		switch h.Type {
		case TypeTrue, TypeFalse:
		case TypeByte:
			size = 1
		case TypeShort:
			size = 2
		case TypeInt:
			size = 4
		case TypeLong, TypeTimestamp:
			size = 8
		case TypeUUID:
			size = 16
		case TypeBytes, TypeString:
			if len(hs) < 2 {
				return Message{}, 0, errors.New("eventstream: header cut short")
			}
			size = int(binary.BigEndian.Uint16(hs))
			hs = hs[2:]
		default:
			return Message{}, 0, fmt.Errorf("eventstream: header %q has unknown type %d", h.Name, h.Type)
		}
		if len(hs) < size {
			return Message{}, 0, errors.New("eventstream: header cut short")
		}
		h.Value = append([]byte(nil), hs[:size]...)
		hs = hs[size:]
		m.Headers = append(m.Headers, h)
	}
	m.Payload = append([]byte{}, frame[preludeLen+4+hlen:total-4]...)
	return m, total, nil
}

// Decoder reads frames from data that may arrive in pieces of any size.
type Decoder struct{ buf []byte }

// Feed adds data and returns the frames it completes.
func (d *Decoder) Feed(data []byte) ([]Message, error) {
	d.buf = append(d.buf, data...)
	var out []Message
	for {
		m, n, err := Decode(d.buf)
		if errors.Is(err, ErrTruncated) {
			return out, nil
		}
		if err != nil {
			return out, err
		}
		out = append(out, m)
		d.buf = d.buf[n:]
	}
}

// Pending is the number of bytes fed that do not yet make a frame.
func (d *Decoder) Pending() int { return len(d.buf) }

// Split cuts data into its frames, undecoded; the rest that makes no whole
// frame (or does not decode) is the last piece.
func Split(data []byte) [][]byte {
	var out [][]byte
	for len(data) > 0 {
		_, n, err := Decode(data)
		if err != nil {
			out = append(out, data)
			break
		}
		out = append(out, data[:n])
		data = data[n:]
	}
	return out
}
