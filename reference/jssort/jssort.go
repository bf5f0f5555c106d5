// Package jssort is JavaScript's Array.prototype.sort with a comparator, as
// V8 (Node) runs it: TimSort, with every comparison made in the order V8
// makes it. That order matters when the comparator is not a consistent
// ordering, as one returning NaN is not (Pi sorts a session tree's entries
// by the difference of their times, and an Invalid Date's time is NaN):
// the result is whatever those comparisons give, and only the same
// comparisons in the same order give the same result.
//
// ECMAScript reads a comparator's NaN as +0, "equal"; a comparison counts
// as "less" only when the result is below zero.
package jssort

// Compare returns what a JavaScript comparator returns for (a, b), as a
// number; an error stops the sort (the comparator threw).
type Compare[T any] func(a, b T) (float64, error)

// Sort sorts xs in place as V8's Array.prototype.sort(compare) does.
func Sort[T any](xs []T, compare Compare[T]) error {
	s := &sorter[T]{a: xs, cmp: compare, minGallop: minGallopStart}
	return s.sort()
}

const (
	// minGallopStart is the number of wins in a row after which a merge
	// starts galloping, at first.
	minGallopStart = 7
	// shortRun: arrays shorter than this are one run, sorted by binary
	// insertion.
	shortRun = 64
)

type run struct{ base, n int }

type sorter[T any] struct {
	a         []T
	cmp       Compare[T]
	runs      []run
	minGallop int
	err       error
}

// less reports whether x sorts before y: compare(x, y) < 0 (NaN is not).
// Once the comparator has thrown it reports false, and the sort winds up.
func (s *sorter[T]) less(x, y T) bool {
	if s.err != nil {
		return false
	}
	r, err := s.cmp(x, y)
	if err != nil {
		s.err = err
		return false
	}
	return r < 0
}

// atLeast is !less, asked where V8 asks whether the result is at or
// above zero; once the comparator has thrown it reports true.
func (s *sorter[T]) atLeast(x, y T) bool {
	if s.err != nil {
		return true
	}
	return !s.less(x, y) || s.err != nil
}

func (s *sorter[T]) sort() error {
	n := len(s.a)
	if n < 2 {
		return nil
	}
	minRun := minRunLength(n)
	for lo := 0; lo < n && s.err == nil; {
		runLen := s.countRun(lo, n)
		if runLen < minRun {
			forced := min(minRun, n-lo)
			s.insertionSort(lo, lo+runLen, lo+forced)
			runLen = forced
		}
		s.runs = append(s.runs, run{lo, runLen})
		s.collapse()
		lo += runLen
	}
	for len(s.runs) > 1 && s.err == nil {
		i := len(s.runs) - 2
		if i > 0 && s.runs[i-1].n < s.runs[i+1].n {
			i--
		}
		s.mergeAt(i)
	}
	return s.err
}

// minRunLength is the shortest run worth merging for n elements: n itself
// below shortRun, else a number between shortRun/2 and shortRun.
func minRunLength(n int) int {
	odd := 0
	for n >= shortRun {
		odd |= n & 1
		n >>= 1
	}
	return n + odd
}

// countRun returns the length of the run that starts at lo: ascending
// (each element not less than the one before it) or strictly descending
// (each less than the one before it), and turns a descending run around.
func (s *sorter[T]) countRun(lo, hi int) int {
	if lo+1 == hi {
		return 1
	}
	descending := s.less(s.a[lo+1], s.a[lo])
	i := lo + 2
	for ; i < hi; i++ {
		if descending {
			if s.atLeast(s.a[i], s.a[i-1]) {
				break
			}
		} else if s.less(s.a[i], s.a[i-1]) {
			break
		}
	}
	if descending {
		for l, r := lo, i-1; l < r; l, r = l+1, r-1 {
			s.a[l], s.a[r] = s.a[r], s.a[l]
		}
	}
	return i - lo
}

// insertionSort extends the sorted a[lo:start] to a[lo:hi], placing each
// element after every one it is not less than, found by binary search.
func (s *sorter[T]) insertionSort(lo, start, hi int) {
	if start == lo {
		start++
	}
	for ; start < hi; start++ {
		pivot := s.a[start]
		l, r := lo, start
		for l < r {
			mid := l + (r-l)/2
			if s.less(pivot, s.a[mid]) {
				r = mid
			} else {
				l = mid + 1
			}
		}
		copy(s.a[l+1:start+1], s.a[l:start])
		s.a[l] = pivot
	}
}

// collapse merges pending runs until their lengths shrink fast enough
// from the bottom of the stack to the top.
func (s *sorter[T]) collapse() {
	for len(s.runs) > 1 && s.err == nil {
		i := len(s.runs) - 2
		length := func(j int) int { return s.runs[j].n }
		broken := func(j int) bool { return j >= 2 && length(j-2) <= length(j-1)+length(j) }
		switch {
		case broken(i+1) || broken(i):
			if length(i-1) < length(i+1) {
				i--
			}
		case length(i) > length(i+1):
			return
		}
		s.mergeAt(i)
	}
}

// mergeAt merges runs i and i+1 of the stack.
func (s *sorter[T]) mergeAt(i int) {
	a, b := s.runs[i], s.runs[i+1]
	s.runs[i] = run{a.base, a.n + b.n}
	s.runs = append(s.runs[:i+1], s.runs[i+2:]...)

	// Elements of a not greater than b's first stay where they are, and so
	// do elements of b not less than a's last.
	k := s.gallopRight(s.a[b.base], s.a[a.base:a.base+a.n], 0)
	a.base += k
	a.n -= k
	if a.n == 0 || s.err != nil {
		return
	}
	b.n = s.gallopLeft(s.a[a.base+a.n-1], s.a[b.base:b.base+b.n], b.n-1)
	if b.n == 0 || s.err != nil {
		return
	}
	if a.n <= b.n {
		s.mergeLow(a, b)
	} else {
		s.mergeHigh(a, b)
	}
}

// gallopLeft returns where key goes in the sorted xs, before every element
// it is not greater than: the first k with !(xs[k] < key), searching out
// from hint by doubling steps, then by halves.
func (s *sorter[T]) gallopLeft(key T, xs []T, hint int) int {
	last, ofs := 0, 1
	if s.less(xs[hint], key) {
		// Search rightwards for the first element not less than key.
		limit := len(xs) - hint
		for ofs < limit && !s.atLeast(xs[hint+ofs], key) {
			last = ofs
			ofs = ofs*2 + 1
		}
		ofs = min(ofs, limit)
		last, ofs = last+hint, ofs+hint
	} else {
		// Search leftwards for an element less than key.
		limit := hint + 1
		for ofs < limit && !s.less(xs[hint-ofs], key) {
			last = ofs
			ofs = ofs*2 + 1
		}
		ofs = min(ofs, limit)
		last, ofs = hint-ofs, hint-last
	}
	// Now xs[last] < key, and key is not greater than xs[ofs].
	last++
	for last < ofs {
		m := last + (ofs-last)/2
		if s.less(xs[m], key) {
			last = m + 1
		} else {
			ofs = m
		}
	}
	return ofs
}

// gallopRight returns where key goes in the sorted xs, after every element
// it is not less than: the first k with key < xs[k].
func (s *sorter[T]) gallopRight(key T, xs []T, hint int) int {
	last, ofs := 0, 1
	if s.less(key, xs[hint]) {
		// Search leftwards for an element key is not less than.
		limit := hint + 1
		for ofs < limit && !s.atLeast(key, xs[hint-ofs]) {
			last = ofs
			ofs = ofs*2 + 1
		}
		ofs = min(ofs, limit)
		last, ofs = hint-ofs, hint-last
	} else {
		// Search rightwards for an element greater than key.
		limit := len(xs) - hint
		for ofs < limit && !s.less(key, xs[hint+ofs]) {
			last = ofs
			ofs = ofs*2 + 1
		}
		ofs = min(ofs, limit)
		last, ofs = last+hint, ofs+hint
	}
	last++
	for last < ofs {
		m := last + (ofs-last)/2
		if s.less(key, xs[m]) {
			ofs = m
		} else {
			last = m + 1
		}
	}
	return ofs
}

// mergeLow merges the adjacent runs a and b, a the shorter, from the
// front: a is copied aside and the merged elements written from a's base.
func (s *sorter[T]) mergeLow(a, b run) {
	tmp := append([]T(nil), s.a[a.base:a.base+a.n]...)
	na, nb := a.n, b.n
	dest, ta, cb := a.base, 0, b.base
	// b's first element is less than a's first (mergeAt made it so).
	s.a[dest] = s.a[cb]
	dest, cb = dest+1, cb+1
	nb--
	finish := func(lastOfAToEnd bool) {
		if lastOfAToEnd {
			copy(s.a[dest:dest+nb], s.a[cb:cb+nb])
			s.a[dest+nb] = tmp[ta]
			return
		}
		copy(s.a[dest:dest+na], tmp[ta:ta+na])
	}
	if nb == 0 {
		finish(false)
		return
	}
	if na == 1 {
		finish(true)
		return
	}
	for {
		winsA, winsB := 0, 0
		// One element at a time, until one run wins minGallop times in a row.
		for {
			if s.err != nil {
				return
			}
			if s.less(s.a[cb], tmp[ta]) {
				s.a[dest] = s.a[cb]
				dest, cb = dest+1, cb+1
				nb--
				winsB++
				winsA = 0
				if nb == 0 {
					finish(false)
					return
				}
				if winsB >= s.minGallop {
					break
				}
			} else {
				s.a[dest] = tmp[ta]
				dest, ta = dest+1, ta+1
				na--
				winsA++
				winsB = 0
				if na == 1 {
					finish(true)
					return
				}
				if winsA >= s.minGallop {
					break
				}
			}
		}
		// Gallop while it pays.
		s.minGallop++
		for first := true; first || winsA >= minGallopStart || winsB >= minGallopStart; first = false {
			s.minGallop = max(1, s.minGallop-1)
			winsA = s.gallopRight(s.a[cb], tmp[ta:ta+na], 0)
			if s.err != nil {
				return
			}
			if winsA > 0 {
				copy(s.a[dest:dest+winsA], tmp[ta:ta+winsA])
				dest, ta = dest+winsA, ta+winsA
				na -= winsA
				if na == 1 {
					finish(true)
					return
				}
				if na == 0 { // only an inconsistent comparator gets here
					finish(false)
					return
				}
			}
			s.a[dest] = s.a[cb]
			dest, cb = dest+1, cb+1
			nb--
			if nb == 0 {
				finish(false)
				return
			}
			winsB = s.gallopLeft(tmp[ta], s.a[cb:cb+nb], 0)
			if s.err != nil {
				return
			}
			if winsB > 0 {
				copy(s.a[dest:dest+winsB], s.a[cb:cb+winsB])
				dest, cb = dest+winsB, cb+winsB
				nb -= winsB
				if nb == 0 {
					finish(false)
					return
				}
			}
			s.a[dest] = tmp[ta]
			dest, ta = dest+1, ta+1
			na--
			if na == 1 {
				finish(true)
				return
			}
		}
		s.minGallop++ // leaving gallop mode costs
	}
}

// mergeHigh merges the adjacent runs a and b, b the shorter, from the
// back: b is copied aside and the merged elements written from b's end.
func (s *sorter[T]) mergeHigh(a, b run) {
	tmp := append([]T(nil), s.a[b.base:b.base+b.n]...)
	na, nb := a.n, b.n
	dest, tb, ca := b.base+b.n-1, b.n-1, a.base+a.n-1
	// a's last element is greater than b's last (mergeAt made it so).
	s.a[dest] = s.a[ca]
	dest, ca = dest-1, ca-1
	na--
	finish := func(firstOfBToFront bool) {
		if firstOfBToFront {
			dest -= na
			ca -= na
			copy(s.a[dest+1:dest+1+na], s.a[ca+1:ca+1+na])
			s.a[dest] = tmp[tb]
			return
		}
		copy(s.a[dest-(nb-1):dest+1], tmp[:nb])
	}
	if na == 0 {
		finish(false)
		return
	}
	if nb == 1 {
		finish(true)
		return
	}
	for {
		winsA, winsB := 0, 0
		for {
			if s.err != nil {
				return
			}
			if s.less(tmp[tb], s.a[ca]) {
				s.a[dest] = s.a[ca]
				dest, ca = dest-1, ca-1
				na--
				winsA++
				winsB = 0
				if na == 0 {
					finish(false)
					return
				}
				if winsA >= s.minGallop {
					break
				}
			} else {
				s.a[dest] = tmp[tb]
				dest, tb = dest-1, tb-1
				nb--
				winsB++
				winsA = 0
				if nb == 1 {
					finish(true)
					return
				}
				if winsB >= s.minGallop {
					break
				}
			}
		}
		s.minGallop++
		for first := true; first || winsA >= minGallopStart || winsB >= minGallopStart; first = false {
			s.minGallop = max(1, s.minGallop-1)
			k := s.gallopRight(tmp[tb], s.a[a.base:a.base+na], na-1)
			if s.err != nil {
				return
			}
			winsA = na - k
			if winsA > 0 {
				dest, ca = dest-winsA, ca-winsA
				copy(s.a[dest+1:dest+1+winsA], s.a[ca+1:ca+1+winsA])
				na -= winsA
				if na == 0 {
					finish(false)
					return
				}
			}
			s.a[dest] = tmp[tb]
			dest, tb = dest-1, tb-1
			nb--
			if nb == 1 {
				finish(true)
				return
			}
			k = s.gallopLeft(s.a[ca], tmp[:nb], nb-1)
			if s.err != nil {
				return
			}
			winsB = nb - k
			if winsB > 0 {
				dest, tb = dest-winsB, tb-winsB
				copy(s.a[dest+1:dest+1+winsB], tmp[tb+1:tb+1+winsB])
				nb -= winsB
				if nb == 1 {
					finish(true)
					return
				}
				if nb == 0 { // only an inconsistent comparator gets here
					finish(false)
					return
				}
			}
			s.a[dest] = s.a[ca]
			dest, ca = dest-1, ca-1
			na--
			if na == 0 {
				finish(false)
				return
			}
		}
		s.minGallop++
	}
}
