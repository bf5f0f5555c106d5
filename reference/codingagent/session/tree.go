package session

import (
	"github.com/piconform/piconform/reference/jsonv"
	"github.com/piconform/piconform/reference/jssort"
)

// The coding agent's SessionManager keeps a loaded file's entries and two
// views of them that read their timestamps: the tree of every entry
// (getTree, which orders an entry's children by time) and the branch from
// the last entry to the root (getBranch), on which the agent session looks
// for the latest compaction to tell whether an assistant message is older
// than it. Both take the entries as Load leaves them, after Migrate, with
// the headers (type "session") left out, as the manager holds them.

// TreeNode is an entry of Tree and the entries below it.
type TreeNode struct {
	Entry    *Entry
	Children []*TreeNode
}

// Tree is SessionManager.getTree for the entries:
//
//   - Each entry gets a node, kept in a Map by its id; an entry whose id
//     another entry also has shares the later one's node, which so appears
//     once for each of them.
//   - An entry whose parentId is null or === its own id is a root; else it
//     goes below the node its parentId names in the Map (undefined names
//     the node of an entry without id), or, naming none, is a root.
//   - From the roots, depth first with a stack (the last root first), each
//     node's children are sorted with Array.prototype.sort by new
//     Date(a.timestamp).getTime() - new Date(b.timestamp).getTime():
//     oldest first, and with Invalid Dates (NaN, which the sort reads as
//     "equal") wherever V8's TimSort leaves them (package jssort).
//
// A timestamp with no primitive value throws in Pi: a *Thrown. Nodes that
// reach themselves (two entries sharing an id can make a loop) keep Pi
// sorting for ever; the reference stops (ErrOutsideModel).
func Tree(entries []*Entry) ([]*TreeNode, error) {
	var list []*Entry
	for _, e := range entries {
		if e.typ() != "session" {
			list = append(list, e)
		}
	}
	nodes := map[string]*TreeNode{}
	for _, e := range list {
		nodes[idKey(e)] = &TreeNode{Entry: e}
	}
	var roots []*TreeNode
	for _, e := range list {
		node := nodes[idKey(e)]
		p := e.parentID
		if p.Kind() == jsonv.Null || jsonv.StrictEqual(p, e.id) {
			roots = append(roots, node)
			continue
		}
		var parent *TreeNode
		if k, ok := mapKey(p); ok {
			parent = nodes[k]
		}
		if parent == nil {
			roots = append(roots, node) // an orphan
			continue
		}
		parent.Children = append(parent.Children, node)
	}
	byTime := func(a, b *TreeNode) (float64, error) {
		ta, err := timeOf(a.Entry.member("timestamp"))
		if err != nil {
			return 0, err
		}
		tb, err := timeOf(b.Entry.member("timestamp"))
		if err != nil {
			return 0, err
		}
		return ta - tb, nil
	}
	stack := append([]*TreeNode(nil), roots...)
	// Without a loop each node is sorted once per entry that names it.
	budget := len(list)*len(list) + len(list) + 1
	for len(stack) > 0 {
		if budget--; budget < 0 {
			return nil, outsideModel("the session tree has a loop (entries sharing an id), on which Pi never returns")
		}
		node := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if err := jssort.Sort(node.Children, byTime); err != nil {
			return nil, err
		}
		stack = append(stack, node.Children...)
	}
	return roots, nil
}

// TreeJSON writes a tree as [{"entry", "children"}], entry being the
// node's Entry.Index (ids do not tell entries apart: two may share one, and
// the version 1 migration draws them at random).
func TreeJSON(nodes []*TreeNode) jsonv.Value {
	out := make([]jsonv.Value, len(nodes))
	for i, n := range nodes {
		out[i] = objectOf("entry", jsonv.FloatValue(float64(n.Entry.Index())), "children", TreeJSON(n.Children))
	}
	return jsonv.ArrayValue(out...)
}

// BeforeLatestCompaction is the first check of the agent session's
// automatic compaction: whether the assistant message whose timestamp is
// given (any JSON value; Pi reads it as it is) is from before the latest
// compaction, in which case its usage no longer counts and the check stops
// there. The latest compaction is the last compaction entry on the branch
// from the manager's leaf (the last entry, by its id) to the root, each
// entry's parent the one its truthy parentId names. The answer is
// assistantTimestamp <= new Date(compaction.timestamp).getTime(), with
// JavaScript's <=: the timestamp is read as a number, and a comparison
// with NaN (an Invalid Date, or a timestamp that reads as none) is false.
// No compaction on the branch is false too. A timestamp with no primitive
// value throws (*Thrown); a parentId loop keeps Pi walking for ever
// (ErrOutsideModel).
func BeforeLatestCompaction(entries []*Entry, assistantTimestamp jsonv.Value) (bool, error) {
	byID := map[string]*Entry{}
	var leaf jsonv.Value
	for _, e := range entries {
		if e.typ() == "session" {
			continue
		}
		byID[idKey(e)] = e
		leaf = e.id
	}
	var current *Entry
	if leaf.Truthy() {
		if k, ok := mapKey(leaf); ok {
			current = byID[k]
		}
	}
	// Only objects have ids (a version 1 file's other entries make its
	// migration throw), so every entry on the branch is truthy, as Pi's
	// walk wants.
	var compaction *Entry
	if current != nil {
		branch, err := walk(current, byID, len(entries))
		if err != nil {
			return false, err
		}
		for _, e := range branch { // root first: the last found is the latest
			if e.typ() == "compaction" {
				compaction = e
			}
		}
	}
	if compaction == nil {
		return false, nil
	}
	t, err := timeOf(compaction.member("timestamp"))
	if err != nil {
		return false, err
	}
	a, err := toNumber(assistantTimestamp)
	if err != nil {
		return false, err
	}
	return a <= t, nil // false when either is NaN
}
