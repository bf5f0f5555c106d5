// Package jsdate reads a date string as JavaScript's Date.parse (and
// new Date(string)) does in V8, the engine of Node, with the local time zone
// UTC, the one the suite runs in.
//
// V8 first tries ECMAScript's Date Time String Format (a simplified ISO
// 8601). When the string leaves that format part way, what it has read so
// far is kept and the rest goes to V8's older, lenient reader, which takes
// the forms browsers have accepted for decades: "Tue Mar 05 2024 10:00:00
// GMT+0100", "2024/03/05 10:00", "March 5, 2024", "5 Mar 2024 10:00 UTC",
// two-digit years and more. A string neither reads is NaN, JavaScript's
// Invalid Date. The rules are written down in spec/session.md
// (session.timestamps); each was checked against Node 22.
package jsdate

import (
	"math"
	"strings"
)

// Parse is Date.parse(s): the milliseconds since 1970-01-01T00:00:00Z that s
// names, or NaN.
func Parse(s string) float64 {
	// V8 reads a NUL character as the end of the string.
	if i := strings.IndexByte(s, 0); i >= 0 {
		s = s[:i]
	}
	f := newFields()
	sc := newScanner(s)
	rest, ok := readISO(sc, &f)
	if !ok {
		return math.NaN()
	}
	if !readLegacy(sc, rest, &f) {
		return math.NaN()
	}
	return f.time()
}

// maxTime is the largest distance from the epoch a Date holds, in ms.
const maxTime = 8.64e15

// Clip is ECMAScript's TimeClip: NaN beyond ±maxTime, else the value
// truncated towards zero (and -0 made 0).
func Clip(t float64) float64 {
	if math.IsNaN(t) || math.Abs(t) > maxTime {
		return math.NaN()
	}
	return math.Trunc(t) + 0
}

// ---- the parts of a date ------------------------------------------------

// unset marks a part not read.
const unset = -1

// fields collects what the two readers find: up to three numbers of the
// day (day), a month named by a word, up to four of the time of day
// (hour, minute, second, millisecond), an am/pm shift and the zone.
type fields struct {
	day    [3]int
	nDay   int
	month  int // a named month 1..12, or unset
	iso    bool
	clock  [4]int
	nClock int
	shift  int // 0 for am, 12 for pm, or unset
	zone   zone
}

// zone is the offset from UTC, sign and size apart, as the readers build it
// up piece by piece. sign is +1 or -1, or 0 for local time.
type zone struct {
	sign, hour, minute int
}

func newFields() fields {
	return fields{month: unset, shift: unset, zone: zone{hour: unset, minute: unset}}
}

func (f *fields) addDay(n int) bool {
	if f.nDay == len(f.day) {
		return false
	}
	f.day[f.nDay] = n
	f.nDay++
	return true
}

func (f *fields) addClock(n int) bool {
	if f.nClock == len(f.clock) {
		return false
	}
	f.clock[f.nClock] = n
	f.nClock++
	return true
}

// finishClock adds n as the last part of the time read, the parts after it
// being zero.
func (f *fields) finishClock(n int) bool {
	if !f.addClock(n) {
		return false
	}
	for f.nClock < len(f.clock) {
		f.clock[f.nClock] = 0
		f.nClock++
	}
	return true
}

// clockWants reports whether n can be the next part of a time already
// begun: a minute or a second (0..59), or milliseconds (0..999).
func (f *fields) clockWants(n int) bool {
	switch f.nClock {
	case 1, 2:
		return inRange(n, 0, 59)
	case 3:
		return inRange(n, 0, 999)
	}
	return false
}

// setZone sets a whole-hour zone, as a zone name gives it.
func (z *zone) set(hours int) {
	z.sign = 1
	if hours < 0 {
		z.sign = -1
	}
	z.hour = hours * z.sign
	z.minute = 0
}

func (z *zone) isUTC() bool { return z.hour == 0 && z.minute == 0 }

// wantsMinute reports whether n completes a zone read up to "+hh:".
func (z *zone) wantsMinute(n int) bool {
	return z.hour != unset && z.minute == unset && inRange(n, 0, 59)
}

func inRange(n, lo, hi int) bool { return lo <= n && n <= hi }

// time composes the parts into a time value, or NaN where a part is out of
// range.
func (f *fields) time() float64 {
	year, month, day, ok := f.date()
	if !ok {
		return math.NaN()
	}
	h, m, s, ms, ok := f.clockOfDay()
	if !ok {
		return math.NaN()
	}
	offset, ok := f.zone.seconds()
	if !ok {
		return math.NaN()
	}
	// Years this far out are NaN whatever the rest says; the bound keeps
	// the arithmetic below in range.
	if year > 1_000_000 {
		return math.NaN()
	}
	days := daysFromCivil(int64(year), int64(month), int64(day))
	t := float64(((days*24+int64(h))*60+int64(m))*60_000 + int64(s)*1000 + int64(ms))
	// Without a zone the time is local, and local is UTC here.
	t -= float64(offset) * 1000
	return Clip(t)
}

// date picks year, month and day out of the numbers read. Without a named
// month, three numbers whose first cannot be a day are year, month, day;
// otherwise month, day, year. With a named month, the first number is the
// day unless it cannot be one, when it is the year and the second the day.
// Parts not read count as 1. Outside the ISO format a year 0..49 is
// 2000..2049 and 50..99 is 1950..1999.
func (f *fields) date() (year, month, day int, ok bool) {
	if f.nDay < 1 {
		return 0, 0, 0, false
	}
	d := f.day
	for i := f.nDay; i < len(d); i++ {
		d[i] = 1
	}
	isDay := func(n int) bool { return inRange(n, 1, 31) }
	switch {
	case f.month == unset && (f.iso || !isDay(d[0])):
		year, month, day = d[0], d[1], d[2]
	case f.month == unset:
		month, day, year = d[0], d[1], d[2]
	case !isDay(d[0]):
		month, year, day = f.month, d[0], d[1]
	default:
		month, day, year = f.month, d[0], d[1]
	}
	if !f.iso {
		switch {
		case inRange(year, 0, 49):
			year += 2000
		case inRange(year, 50, 99):
			year += 1900
		}
	}
	return year, month, day, inRange(month, 1, 12) && isDay(day)
}

// clockOfDay checks the time read (parts not read are 0). With am or pm the
// hour is 0..12, 12 counting as 0; otherwise 0..23, or 24 for the end of
// the day with nothing after it.
func (f *fields) clockOfDay() (h, m, s, ms int, ok bool) {
	c := f.clock
	for i := f.nClock; i < len(c); i++ {
		c[i] = 0
	}
	h, m, s, ms = c[0], c[1], c[2], c[3]
	if f.shift != unset {
		if !inRange(h, 0, 12) {
			return 0, 0, 0, 0, false
		}
		h = h%12 + f.shift
	}
	if inRange(h, 0, 23) && inRange(m, 0, 59) && inRange(s, 0, 59) && inRange(ms, 0, 999) {
		return h, m, s, ms, true
	}
	return h, m, s, ms, h == 24 && m == 0 && s == 0 && ms == 0
}

// seconds is the zone's offset east of UTC in seconds (0 for local time,
// which is UTC). V8 sums it in 32 bits without sign and refuses a sum past
// the largest small integer it holds, 2³¹-1.
func (z zone) seconds() (int64, bool) {
	if z.sign == 0 {
		return 0, true
	}
	h, m := z.hour, z.minute
	if h == unset {
		h = 0
	}
	if m == unset {
		m = 0
	}
	total := uint32(h)*3600 + uint32(m)*60
	if total > math.MaxInt32 {
		return 0, false
	}
	return int64(total) * int64(z.sign), true
}

// daysFromCivil counts days from 1970-01-01 to a proleptic Gregorian date;
// a day past the month's end runs into the next month.
func daysFromCivil(y, m, d int64) int64 {
	if m <= 2 {
		y--
	}
	era := y / 400
	if y < 0 && y%400 != 0 {
		era--
	}
	yoe := y - era*400
	mp := (m + 9) % 12
	doy := (153*mp+2)/5 + d - 1
	doe := yoe*365 + yoe/4 - yoe/100 + doy
	return era*146097 + doe - 719468
}
