package transform

import (
	"testing"

	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/wtf8"
)

// regexCases were computed by Node 22 (the runtime Pi 0.80.2 ran on) as
// id.replace(new RegExp(pattern, "g"), with).slice(0, max). "error" marks a
// pattern JavaScript rejects; "unsupported" one that JavaScript accepts but
// Go's regexp cannot express.
const regexCases = `[
{"pattern": "[^a-zA-Z0-9_-]", "with": "_", "id": "call\ud83d\ude00", "want": "call__"},
{"pattern": "[|]", "with": "_", "id": "abcd\ud83d\ude00|x", "max": 5, "want": "abcd\ud83d"},
{"pattern": "\\|.*$", "with": "", "id": "call_abc|fc_x", "max": 40, "want": "call_abc"},
{"pattern": "[^a-zA-Z0-9_-]", "with": "_", "id": "call.1.2|fc_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx", "max": 64, "want": "call_1_2_fc_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"},
{"pattern": "b*", "with": "X", "id": "abc", "want": "XaXXcX"},
{"pattern": "x*", "with": "-", "id": "axxb", "want": "-a--b-"},
{"pattern": "", "with": "-", "id": "ab", "want": "-a-b-"},
{"pattern": ".", "with": "x", "id": "a\nb\r\u2028\u2029\ud83d\ude00", "want": "x\nx\r\u2028\u2029xx"},
{"pattern": "a.c", "with": "-", "id": "a\u2029c abc a\rc", "want": "a\u2029c - a\rc"},
{"pattern": "\\s", "with": "_", "id": "a\u00a0b\u3000c\u000bd\ufeffe\u180ef\u200bg\u2007h\u0085i", "want": "a_b_c_d_e\u180ef\u200bg_h\u0085i"},
{"pattern": "\\S+", "with": "[$&]", "id": "ab  cd", "want": "[ab]  [cd]"},
{"pattern": "(a)(b)?", "with": "$2$1$$$&$\u0060$'$0$3$10$01$00$<x>$", "id": "xaby a", "want": "xba$abxy a$0$3a0a$00$<x>$y a$axaby $0$3a0a$00$<x>$"},
{"pattern": "(?<n>a)", "with": "[$<n>][$<m>][$<n", "id": "bab", "want": "b[a][][$<nb"},
{"pattern": "(?<n>a)(b)", "with": "$2$<n>", "id": "ab", "want": "ba"},
{"pattern": "^a", "with": "X", "id": "aaa", "want": "Xaa"},
{"pattern": "\\ba", "with": "X", "id": "a a ba", "want": "X X ba"},
{"pattern": "\\B", "with": "-", "id": "abc de", "want": "a-b-c d-e"},
{"pattern": "$", "with": "!", "id": "ab", "want": "ab!"},
{"pattern": "^", "with": "!", "id": "ab", "want": "!ab"},
{"pattern": "^|$", "with": "!", "id": "ab", "want": "!ab!"},
{"pattern": "\\uD83D", "with": "H", "id": "\ud83d\ude00x", "want": "H\ude00x"},
{"pattern": "[\\uD800-\\uDBFF]", "with": "H", "id": "a\ud83d\ude00b\udc00", "want": "aH\ude00b\udc00"},
{"pattern": "[\\u0000-\\uFFFF]", "with": "x", "id": "a\ud83d\ude00", "want": "xxx"},
{"pattern": "[^]", "with": "x", "id": "a\ud83d\ude00", "want": "xxx"},
{"pattern": "[]", "with": "x", "id": "abc", "want": "abc"},
{"pattern": "\\x41\\u0042\\cC\\0\\101", "with": "!", "id": "AB\u0003\u0000A", "want": "!"},
{"pattern": "a{2}|{|}|]", "with": "#", "id": "aaa{}]", "want": "#a###"},
{"pattern": "\\d+", "with": "<$&>", "id": "a12b345c", "max": -2, "want": "a<12>b<345"},
{"pattern": "[\\w-.]", "with": "", "id": "a-b.c,d", "want": ","},
{"pattern": "[a-\\d]", "with": "", "id": "a-b1c", "want": "bc"},
{"pattern": "\\A\\z\\p", "with": "!", "id": "Azp", "want": "!"},
{"pattern": "[[:alpha:]]", "with": "!", "id": "a]:]x", "want": "!!x"},
{"pattern": "(?:ab)+", "with": "Z", "id": "ababab c", "max": 3, "want": "Z c"},
{"pattern": "\ud83d\ude00", "with": "S", "id": "x\ud83d\ude00y", "want": "xSy"},
{"pattern": "[\ud83d\ude00]", "with": "S", "id": "x\ud83d\ude00y", "want": "xSSy"},
{"pattern": "\ud83d\ude00+", "with": "S", "id": "x\ud83d\ude00\ude00\ude00y", "want": "xSy"},
{"pattern": "\\10", "with": "o", "id": "\ba", "want": "oa"},
{"pattern": "\\8", "with": "o", "id": "8", "want": "o"},
{"pattern": "[\\1]", "with": "o", "id": "\u0001", "want": "o"},
{"pattern": "(x)?y", "with": "[$1]", "id": "y xy", "want": "[] [x]"},
{"pattern": "(a)|b", "with": "$1$1", "id": "ab", "want": "aa"},
{"pattern": "\\$", "with": "$$", "id": "a$b", "want": "a$b"},
{"pattern": "[\\s]", "with": "_", "id": " \u2028x", "want": "__x"},
{"pattern": "[\\S]", "with": "_", "id": " \u2028x\ud83d\ude00", "want": " \u2028___"},
{"pattern": "[^\\s\\d]", "with": "_", "id": "1 a\u00a0", "want": "1 _\u00a0"},
{"pattern": "[^a-zA-Z0-9_-]", "with": "_", "id": "abc", "max": 0, "want": ""},
{"pattern": "\\c", "with": "!", "id": "\\c", "want": "!"},
{"pattern": "[\\c1]", "with": "!", "id": "\u0011", "want": "!"},
{"pattern": "[\\c]", "with": "!", "id": "\\c", "want": "!!"},
{"pattern": "\\k", "with": "!", "id": "k", "want": "!"},
{"pattern": "a{,2}", "with": "!", "id": "a{,2}", "want": "!"},
{"pattern": "\\u{2}", "with": "!", "id": "uuu", "want": "!u"},
{"pattern": "(?:)", "with": "-", "id": "ab", "want": "-a-b-"},
{"pattern": "\\w+$", "with": "", "id": "ab cd", "want": "ab "},
{"pattern": "[\\b]", "with": "B", "id": "\b b", "want": "B b"},
{"pattern": "\\x4", "with": "!", "id": "x4", "want": "!"},
{"pattern": "\\u12", "with": "!", "id": "u12", "want": "!"},
{"pattern": "a|", "with": "-", "id": "ab", "want": "--b-"},
{"pattern": "(?:a|ab)(c|bcd)", "with": "[$1]", "id": "abcd", "want": "[bcd]"},
{"pattern": "a*?", "with": "-", "id": "aa", "want": "-a-a-"},
{"pattern": "a+?", "with": "-", "id": "aa", "want": "--"},
{"pattern": "\\-\\/\\.", "with": "!", "id": "-/.", "want": "!"},
{"pattern": "\\v\\f\\t\\n\\r", "with": "!", "id": "\u000b\f\t\n\r", "want": "!"},
{"pattern": "[\\-]", "with": "!", "id": "-", "want": "!"},
{"pattern": "[\\B]", "with": "!", "id": "B\\", "want": "!\\"},
{"pattern": "a", "with": "$", "id": "a", "want": "$"},
{"pattern": "a", "with": "$$1", "id": "a", "want": "$1"},
{"pattern": "(a)", "with": "$11", "id": "a", "want": "a1"},
{"pattern": "(a)", "with": "$<n>", "id": "a", "want": "$<n>"},
{"pattern": "\\d", "with": "$2", "id": "5", "want": "$2"},
{"pattern": "[\ud83d\ude00-\ud83d\ude02]", "with": "", "id": "x", "error": true},
{"pattern": "(a)\\1", "with": "", "id": "aa", "unsupported": true},
{"pattern": "(?=a)", "with": "", "id": "a", "unsupported": true},
{"pattern": "(?<=a)b", "with": "", "id": "ab", "unsupported": true},
{"pattern": "(?i)a", "with": "", "id": "a", "error": true},
{"pattern": "[z-a]", "with": "", "id": "a", "error": true},
{"pattern": "a**", "with": "", "id": "a", "error": true},
{"pattern": "\\", "with": "", "id": "a", "error": true},
{"pattern": "(?<a>x)(?<a>y)", "with": "", "id": "xy", "error": true},
{"pattern": "[", "with": "", "id": "a", "error": true},
{"pattern": "(", "with": "", "id": "a", "error": true},
{"pattern": "\\k<n>(?<n>a)", "with": "", "id": "a", "unsupported": true},
{"pattern": "(?:|b)+", "with": "_", "id": "b", "unsupported": true},
{"pattern": "(?:\\t|9*|\\cJ)+", "with": "_", "id": "a\nb", "unsupported": true},
{"pattern": "(?:b??)*", "with": "_", "id": "b", "unsupported": true},
{"pattern": "(?:|b)?", "with": "_", "id": "b", "unsupported": true},
{"pattern": "(?:a*|b){2}", "with": "_", "id": "b", "want": "_b_"},
{"pattern": "(?:a*)*", "with": "_", "id": "aab", "want": "__b_"},
{"pattern": "(?:a|)*", "with": "_", "id": "aab", "want": "__b_"}
]`

func TestRegexNormalizerMatchesJavaScript(t *testing.T) {
	v, err := jsonv.Parse([]byte(regexCases))
	if err != nil {
		t.Fatal(err)
	}
	if n := len(v.Elems()); n < 80 {
		t.Fatalf("only %d cases parsed", n)
	}
	for i, c := range v.Elems() {
		get := func(k string) jsonv.Value { x, _ := c.Get(k); return x }
		pattern, with, id := get("pattern").Str(), get("with").Str(), get("id").Str()
		var maxLength *int
		if m := get("max"); !m.IsAbsent() {
			f, _ := m.Float64()
			n := int(f)
			maxLength = &n
		}
		norm, err := RegexNormalizer(pattern, with, maxLength)
		if get("error").Truthy() || get("unsupported").Truthy() {
			if err == nil {
				t.Errorf("case %d /%s/: want an error, got none", i, pattern)
			}
			continue
		}
		if err != nil {
			t.Errorf("case %d /%s/: %v", i, pattern, err)
			continue
		}
		got := norm(id, nil, nil)
		if want := get("want").Str(); got != wtf8.Canonical(want) {
			t.Errorf("case %d /%s/ with %q on %q: got %q, want %q", i, pattern, with, id, got, want)
		}
	}
}
