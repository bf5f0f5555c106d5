package session

import (
	"math"
	"regexp"
	"strconv"

	"github.com/piconform/piconform/reference/jsonv"
)

// timeValue is new Date(v).getTime() for a parsed value, as the number
// JSON.stringify writes (null for NaN): a string is parsed as a date, null
// is 0, a number is clipped to the Date range and truncated, undefined is
// NaN.
func timeValue(v jsonv.Value) (jsonv.Value, error) {
	var t float64
	switch v.Kind() {
	case jsonv.Absent:
		t = math.NaN()
	case jsonv.Null, jsonv.Bool, jsonv.Number:
		t, _ = toNumber(v)
	default:
		s, err := toPrimitiveString(v)
		if err != nil {
			return jsonv.Value{}, err
		}
		if t, err = parseDate(s); err != nil {
			return jsonv.Value{}, err
		}
	}
	return jsonv.FloatValue(timeClip(t)), nil
}

// maxTime is the largest distance from the epoch a Date holds, in ms.
const maxTime = 8.64e15

func timeClip(t float64) float64 {
	if math.IsNaN(t) || math.Abs(t) > maxTime {
		return math.NaN()
	}
	return math.Trunc(t) + 0 // +0 turns -0 into 0
}

// dateTime is ECMAScript's Date Time String Format with what V8 also takes
// there: a lower-case t or z, a space for the T, more than three digits of
// fraction (cut to milliseconds) and an offset without a colon. A date-time
// without an offset is local time, which the session kind runs in UTC.
var dateTime = regexp.MustCompile(`^([+-][0-9]{6}|[0-9]{4})(?:-([0-9]{2})(?:-([0-9]{2})(?:[Tt ]([0-9]{2}):([0-9]{2})(?::([0-9]{2})(?:\.([0-9]+))?)?([Zz]|[+-][0-9]{2}:?[0-9]{2})?)?)?)?$`)

// parseDate is Date.parse for the strings the reference models: the ISO
// format above, which gives a time or NaN. Any other string goes to the
// engine's own fallback parser, which ECMAScript leaves to each engine.
func parseDate(s string) (float64, error) {
	m := dateTime.FindStringSubmatch(s)
	if m == nil {
		if s == "" || s == "[object Object]" {
			return math.NaN(), nil
		}
		return 0, outsideModel("a date string outside the ISO format, %q", s)
	}
	num := func(i int, unset int64) int64 {
		if m[i] == "" {
			return unset
		}
		n, _ := strconv.ParseInt(m[i], 10, 64)
		return n
	}
	if m[1] == "-000000" {
		return math.NaN(), nil
	}
	year, month, day := num(1, 0), num(2, 1), num(3, 1)
	hour, minute, second := num(4, 0), num(5, 0), num(6, 0)
	ms := int64(0)
	if f := m[7]; f != "" {
		f = (f + "00")[:3]
		ms, _ = strconv.ParseInt(f, 10, 64)
	}
	if month < 1 || month > 12 || day < 1 || day > 31 || minute > 59 || second > 59 ||
		hour > 24 || (hour == 24 && (minute != 0 || second != 0 || ms != 0)) {
		return math.NaN(), nil
	}
	offset := int64(0)
	if z := m[8]; len(z) > 1 {
		oh, _ := strconv.ParseInt(z[1:3], 10, 64)
		om, _ := strconv.ParseInt(z[len(z)-2:], 10, 64)
		if oh > 23 || om > 59 {
			return math.NaN(), nil
		}
		offset = oh*60 + om
		if z[0] == '-' {
			offset = -offset
		}
	}
	days := daysFromCivil(year, month, day)
	t := ((days*24+hour)*60+minute-offset)*60_000 + second*1000 + ms
	return float64(t), nil
}

// daysFromCivil counts days from 1970-01-01 to a proleptic Gregorian date;
// a day past the month's end runs into the next month, as V8's does.
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
