package transform

import (
	"strings"
	"testing"

	"github.com/piconform/piconform/reference/wtf8"
)

func TestShortHash(t *testing.T) {
	// Expected values come from running pi-ai 0.80.2's shortHash under Node.
	cases := []struct{ in, want string }{
		{"", "k4n83c7h0j2b"},
		{"a", "m8735310ae7sx"},
		{"rs_x", "11xdso51bict90"},
		{"call_abc", "py36n51ekigv6"},
		{"abc+", "13208xzs9yen1"},
		{"a|b|c", "15dga5q1950keg"},
		{"abc+:1", "p8axhf1uv4cn6"},
		{"😀", "13wj7r7usi372"},
		{wtf8.FromUTF16([]uint16{0xD83D}), "18lfc671o48onq"},
		{wtf8.FromUTF16([]uint16{'x', 0xDC00, 'y'}), "6puz6617pu8w5"},
		{"é\x00\uffff", "1p12dh68hn80j"},
		{"ABCDEFGHI", "10m4jnt3vxxp2"},
		{"rs_" + strings.Repeat("0123456789abcdef", 30), "1sxede5196jt3f"},
	}
	for _, c := range cases {
		if got := ShortHash(c.in); got != c.want {
			t.Errorf("ShortHash(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
