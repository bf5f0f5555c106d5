package jsdate

// ---- tokens ---------------------------------------------------------------

type kind uint8

const (
	kEnd    kind = iota
	kNumber      // a run of ASCII digits
	kSymbol      // one of : - + . )
	kWord        // a run of letters (and of every character from 'A' up that is not white space)
	kSpace       // one white-space character
	kOther       // anything else, or a parenthesized comment
)

// wordKind says what a word means.
type wordKind uint8

const (
	wNone     wordKind = iota // not a word the reader knows
	wMonth                    // value 1..12
	wAMPM                     // value 0 (am) or 12 (pm)
	wZone                     // value: the zone's offset in hours
	wTimeMark                 // the T between an ISO date and its time
)

type token struct {
	kind   kind
	num    int  // kNumber: its value, at most nine significant digits
	length int  // kNumber, kWord: how many characters it spans
	sym    rune // kSymbol
	word   wordKind
	value  int // kWord
}

func (t token) isSymbol(c rune) bool { return t.kind == kSymbol && t.sym == c }
func (t token) isSign() bool         { return t.isSymbol('+') || t.isSymbol('-') }

// sign is +1 or -1 for a sign symbol.
func (t token) sign() int {
	if t.sym == '-' {
		return -1
	}
	return 1
}

// isNumberOfLength reports whether t is a number written with exactly n
// digits, leading zeros counted.
func (t token) isNumberOfLength(n int) bool { return t.kind == kNumber && t.length == n }

// isZ reports whether t is the word "z" alone.
func (t token) isZ() bool { return t.kind == kWord && t.word == wZone && t.length == 1 && t.value == 0 }

// keywords are the words the reader knows, lower case. A word matches one
// when it is the keyword; a longer word matches a month by its first three
// letters ("March", "Marchxyz").
var keywords = map[string]token{}

func init() {
	for i, m := range []string{"jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"} {
		keywords[m] = token{word: wMonth, value: i + 1}
	}
	keywords["am"] = token{word: wAMPM, value: 0}
	keywords["pm"] = token{word: wAMPM, value: 12}
	for name, hours := range map[string]int{
		"z": 0, "ut": 0, "utc": 0, "gmt": 0,
		"edt": -4, "est": -5, "cdt": -5, "cst": -6, "mdt": -6, "mst": -7, "pdt": -7, "pst": -8,
	} {
		keywords[name] = token{word: wZone, value: hours}
	}
	keywords["t"] = token{word: wTimeMark}
}

// isSpace reports whether r is white space to the reader: ECMAScript's
// WhiteSpace and the line feed and carriage return. (U+2028 and U+2029,
// though line terminators, read as part of a word.)
func isSpace(r rune) bool {
	switch {
	case r >= '\t' && r <= '\r', r == ' ', r == 0xA0, r == 0x1680, r >= 0x2000 && r <= 0x200A,
		r == 0x202F, r == 0x205F, r == 0x3000, r == 0xFEFF:
		return true
	}
	return false
}

func isWordChar(r rune) bool { return r >= 'A' && !isSpace(r) }

func isDigit(r rune) bool { return r >= '0' && r <= '9' }

// ---- the scanner --------------------------------------------------------

// scanner cuts a string into tokens, one looked ahead.
type scanner struct {
	in    []rune
	pos   int
	ahead token
}

func newScanner(s string) *scanner {
	sc := &scanner{in: []rune(s)}
	sc.ahead = sc.scan()
	return sc
}

func (sc *scanner) peek() token { return sc.ahead }

func (sc *scanner) next() token {
	t := sc.ahead
	sc.ahead = sc.scan()
	return t
}

// skip consumes the symbol c if it comes next.
func (sc *scanner) skip(c rune) bool {
	if sc.ahead.isSymbol(c) {
		sc.next()
		return true
	}
	return false
}

func (sc *scanner) at() rune {
	if sc.pos < len(sc.in) {
		return sc.in[sc.pos]
	}
	return -1
}

// maxDigits is how many significant digits a number keeps; later digits
// still count towards its length.
const maxDigits = 9

func (sc *scanner) scan() token {
	start := sc.pos
	r := sc.at()
	switch {
	case r < 0:
		return token{kind: kEnd}
	case isDigit(r):
		for sc.at() == '0' {
			sc.pos++
		}
		n, sig := 0, 0
		for isDigit(sc.at()) {
			if sig < maxDigits {
				n = n*10 + int(sc.at()-'0')
			}
			sig++
			sc.pos++
		}
		return token{kind: kNumber, num: n, length: sc.pos - start}
	case r == ':' || r == '-' || r == '+' || r == '.' || r == ')':
		sc.pos++
		return token{kind: kSymbol, sym: r}
	case isWordChar(r):
		var prefix []rune
		for isWordChar(sc.at()) {
			if len(prefix) < 3 {
				prefix = append(prefix, sc.at()|0x20)
			}
			sc.pos++
		}
		t := token{kind: kWord, length: sc.pos - start}
		if kw, ok := keywords[string(prefix)]; ok && (t.length <= 3 || kw.word == wMonth) {
			t.word, t.value = kw.word, kw.value
		}
		return t
	case isSpace(r):
		sc.pos++
		return token{kind: kSpace}
	case r == '(':
		// A comment, nested parentheses and all, up to the end.
		depth := 0
		for {
			switch sc.at() {
			case '(':
				depth++
			case ')':
				depth--
			}
			sc.pos++
			if depth <= 0 || sc.at() < 0 {
				break
			}
		}
		return token{kind: kOther}
	}
	sc.pos++
	return token{kind: kOther}
}

// ---- the ISO reader ------------------------------------------------------

// readISO reads the Date Time String Format: [+-yy]yyyy[-MM[-DD]], then
// optionally T, HH:mm[:ss[.sss]] and Z or an offset (+hh:mm or +hhmm), up to
// the end. It returns false where the string is already invalid (a time
// after the T that breaks the format). Where the string leaves the format
// before any T, what was read stays and the token where it left is
// returned for the legacy reader to go on from; after a whole ISO string it
// returns the end.
func readISO(sc *scanner, f *fields) (token, bool) {
	switch t := sc.peek(); {
	case t.isSign():
		sign := sc.next()
		if !sc.peek().isNumberOfLength(6) {
			return sign, true
		}
		year := sc.next().num
		if sign.sign() < 0 && year == 0 {
			return sign, true // "-000000" is no year; the number is gone
		}
		f.addDay(sign.sign() * year)
	case t.isNumberOfLength(4):
		f.addDay(sc.next().num)
	default:
		return sc.next(), true
	}
	if sc.skip('-') {
		if t := sc.peek(); !t.isNumberOfLength(2) || !inRange(t.num, 1, 12) {
			return sc.next(), true
		}
		f.addDay(sc.next().num)
		if sc.skip('-') {
			if t := sc.peek(); !t.isNumberOfLength(2) || !inRange(t.num, 1, 31) {
				return sc.next(), true
			}
			f.addDay(sc.next().num)
		}
	}
	if t := sc.peek(); t.kind != kWord || t.word != wTimeMark || t.length != 1 {
		if t.kind != kEnd {
			return sc.next(), true
		}
	} else if !readISOTime(sc, f) {
		return token{}, false
	}
	f.iso = true
	return token{kind: kEnd}, true
}

// readISOTime reads what follows the T, to the end of the string.
func readISOTime(sc *scanner, f *fields) bool {
	sc.next() // the T
	two := func(lo, hi int) (int, bool) {
		t := sc.peek()
		if !t.isNumberOfLength(2) || !inRange(t.num, lo, hi) {
			return 0, false
		}
		sc.next()
		return t.num, true
	}
	hour, ok := two(0, 24)
	if !ok || !sc.skip(':') {
		return false
	}
	f.addClock(hour)
	// 24:00, 24:00:00 and 24:00:00.000 are the end of the day; nothing
	// else begins with 24.
	maxAt24 := 59
	if hour == 24 {
		maxAt24 = 0
	}
	minute, ok := two(0, maxAt24)
	if !ok {
		return false
	}
	f.addClock(minute)
	if sc.skip(':') {
		second, ok := two(0, maxAt24)
		if !ok {
			return false
		}
		f.addClock(second)
		if sc.skip('.') {
			t := sc.peek()
			if t.kind != kNumber || hour == 24 && t.num > 0 {
				return false
			}
			f.addClock(millis(sc.next()))
		}
	}
	switch t := sc.peek(); {
	case t.isZ():
		sc.next()
		f.zone.set(0)
	case t.isSign():
		f.zone.sign = sc.next().sign()
		if t := sc.peek(); t.isNumberOfLength(4) {
			sc.next()
			h, m := t.num/100, t.num%100
			if !inRange(h, 0, 23) || !inRange(m, 0, 59) {
				return false
			}
			f.zone.hour, f.zone.minute = h, m
		} else {
			h, ok := two(0, 23)
			if !ok || !sc.skip(':') {
				return false
			}
			m, ok := two(0, 59)
			if !ok {
				return false
			}
			f.zone.hour, f.zone.minute = h, m
		}
	}
	return sc.peek().kind == kEnd
}

// millis reads a fraction of a second as milliseconds from its leading
// digits: "5" is 500, "1234" is 123. Only the digits the number kept count,
// so past nine digits (leading zeros included) the value is V8's, not the
// fraction's.
func millis(t token) int {
	n, length := t.num, t.length
	switch {
	case length == 1:
		return n * 100
	case length == 2:
		return n * 10
	case length > 3:
		length = min(length, maxDigits)
		for ; length > 3; length-- {
			n /= 10
		}
	}
	return n
}

// ---- the legacy reader ---------------------------------------------------

// readLegacy goes on from tok, the first token the ISO reader left, to the
// end, reading numbers as parts of the day, of the time or of the zone by
// what follows them and what has been read. It returns false where the
// string reads as no date.
func readLegacy(sc *scanner, tok token, f *fields) bool {
	readNumber := f.nDay > 0
	for t := tok; t.kind != kEnd; t = sc.next() {
		switch {
		case t.kind == kNumber:
			readNumber = true
			n := t.num
			switch {
			case sc.skip(':'):
				if sc.skip(':') {
					// "n::" is an hour and a zero minute.
					if f.nClock != 0 {
						return false
					}
					f.addClock(n)
					f.addClock(0)
				} else {
					if !f.addClock(n) {
						return false
					}
					if sc.peek().isSymbol('.') {
						sc.next()
					}
				}
			case sc.skip('.') && f.clockWants(n):
				// "ss.fff": the fraction ends the time.
				f.addClock(n)
				if sc.peek().kind != kNumber {
					return false
				}
				f.finishClock(millis(sc.next()))
			case f.zone.wantsMinute(n):
				f.zone.minute = n
			case f.clockWants(n):
				f.finishClock(n)
				// The time must be followed by the end, white space, Z or
				// a sign.
				if p := sc.peek(); p.kind != kEnd && p.kind != kSpace && !p.isZ() && !p.isSign() {
					return false
				}
			default:
				if !f.addDay(n) {
					return false
				}
				sc.skip('-')
			}
		case t.kind == kWord && t.word != wNone:
			switch {
			case t.word == wAMPM && f.nClock != 0:
				f.shift = t.value
			case t.word == wMonth:
				f.month = t.value
				sc.skip('-')
			case t.word == wZone && readNumber:
				f.zone.set(t.value)
			default:
				if !garbageWord(sc, readNumber) {
					return false
				}
			}
		case t.kind == kWord:
			if !garbageWord(sc, readNumber) {
				return false
			}
		case t.isSign() && (f.zone.isUTC() || f.nClock != 0):
			// An offset after a zone name that is UTC, or after a time:
			// +h, +hh, +hhh, +hhmm, or +hh: with the minutes after it.
			f.zone.sign = t.sign()
			n, length := 0, 0
			if p := sc.peek(); p.kind == kNumber {
				sc.next()
				n, length = p.num, p.length
			}
			readNumber = true
			switch {
			case sc.peek().isSymbol(':'):
				f.zone.hour, f.zone.minute = n, unset
			case length == 1 || length == 2:
				f.zone.hour, f.zone.minute = n, 0
			case length == 3 || length == 4:
				f.zone.hour, f.zone.minute = n/100, n%100
			default:
				return false
			}
		case (t.isSign() || t.isSymbol(')')) && readNumber:
			return false
		}
		// Anything else (white space, other punctuation, a comment) is
		// skipped.
	}
	return true
}

// garbageWord is a word the reader does not use: it is skipped before the
// first number, unless a number follows it at once, and refused after.
func garbageWord(sc *scanner, readNumber bool) bool {
	return !readNumber && sc.peek().kind != kNumber
}
