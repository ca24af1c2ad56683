package analyze

import (
	"fmt"
	"strings"
)

// This file keeps what can be kept of a V8 profile whose nodes name nodes
// the file does not hold: a trace cut short or whose earlier chunks were
// lost (Chrome 141's DevTools wrote one), a CpuProfile event whose nodes
// list children that are not there. Child ids that nothing else names are
// dropped; an absent node that other nodes name as their parent, or that
// samples name, gets a placeholder node, under the node that lists it as a
// child when one does, else under the root; one warning says how much of
// the samples' time lies under placeholders.

// missingNodes is what build found of nodes the file names but does not
// hold, and the placeholders made for them.
type missingNodes struct {
	children    int      // child ids that name no node, dropped unless named otherwise
	firstChild  [2]int64 // node id, child id
	orphans     int      // nodes whose parent is absent
	firstParent [2]int64 // node id, parent id
	samples     int      // samples that name an absent node
	placeholder map[int64]int32
	frames      [2]int32 // the placeholders' frames, by missingFrame; -1 until made
	root        int32    // the node placeholders go under, found with the first
}

// missingFrame says which name a placeholder's frame has.
type missingFrame int

const (
	missingParentFrame missingFrame = iota // named as a parent
	missingNodeFrame                       // named by samples only
)

var missingFrameNames = [...]string{"(missing parent)", "(missing node)"}

// place returns the placeholder node of the absent node id, making it, and
// its frame, when new.
func (m *missingNodes) place(p *Profile, id int64, kind missingFrame) int32 {
	if n, ok := m.placeholder[id]; ok {
		return n
	}
	if m.frames[kind] < 0 {
		m.frames[kind] = int32(len(p.Frames))
		p.Frames = append(p.Frames, Frame{Kind: KindNative, Name: missingFrameNames[kind]})
	}
	if m.placeholder == nil {
		m.placeholder = map[int64]int32{}
		m.root = rootOf(p)
	}
	n := int32(len(p.Nodes))
	p.Nodes = append(p.Nodes, Node{Frame: m.frames[kind], Parent: m.root})
	m.placeholder[id] = n
	return n
}

// rootOf returns the root of p's call tree as read so far: the first node
// without a parent whose frame is of the root's kind, else the first
// without a parent, else -1.
func rootOf(p *Profile) int32 {
	root := int32(-1)
	for i, nd := range p.Nodes {
		if nd.Parent >= 0 {
			continue
		}
		if p.Frames[nd.Frame].Kind == KindRoot {
			return int32(i)
		}
		if root < 0 {
			root = int32(i)
		}
	}
	return root
}

// placeUnderListers moves each placeholder under the node that lists its
// id as a child, when one does; a cycle that makes (of a hostile file)
// puts them all back under the root.
func (rp *rawProfile) placeUnderListers(p *Profile, idx *idIndex, m *missingNodes) {
	if m.children == 0 {
		return
	}
	moved := false
	for i := range rp.nodes.len() {
		rn := rp.nodes.at(i)
		for j := rp.childStart(i); j < rn.childEnd; j++ {
			cid := rp.children.at(int(j))
			if n, ok := m.placeholder[cid]; ok {
				if _, held := idx.lookup(cid); !held && p.Nodes[n].Parent == m.root {
					p.Nodes[n].Parent = int32(i)
					moved = true
				}
			}
		}
	}
	if moved && p.findCycle() >= 0 {
		for _, n := range m.placeholder {
			p.Nodes[n].Parent = m.root
		}
	}
}

// warning says what was dropped and kept, and how much of the samples'
// time lies under placeholders.
func (m *missingNodes) warning(p *Profile) Warning {
	var parts []string
	if m.children > 0 {
		what := fmt.Sprintf("%d child ids name nodes", m.children)
		if m.children == 1 {
			what = "1 child id names a node"
		}
		parts = append(parts, fmt.Sprintf("%s that the file does not hold (node %d lists %d)", what, m.firstChild[0], m.firstChild[1]))
	}
	if m.orphans > 0 {
		what := fmt.Sprintf("%d nodes name parents", m.orphans)
		if m.orphans == 1 {
			what = "1 node names a parent"
		}
		parts = append(parts, fmt.Sprintf("%s that the file does not hold (node %d names %d)", what, m.firstParent[0], m.firstParent[1]))
	}
	if m.samples > 0 {
		what := fmt.Sprintf("%d samples name nodes", m.samples)
		if m.samples == 1 {
			what = "1 sample names a node"
		}
		parts = append(parts, what+" that the file does not hold")
	}
	msg := strings.Join(parts, "; ")
	if len(m.placeholder) == 0 {
		if m.children == 1 {
			return Warning{Kind: WarnMissingNodes, Message: msg + ": no sample is in it, so it was dropped"}
		}
		return Warning{Kind: WarnMissingNodes, Message: msg + ": no sample is in them, so they were dropped"}
	}
	kept, total := m.timeUnder(p)
	share := ""
	if total > 0 {
		share = fmt.Sprintf(" (%.1f%% of the samples' time)", 100*float64(kept)/float64(total))
	}
	var names []string
	for k, f := range m.frames {
		if f >= 0 {
			names = append(names, fmt.Sprintf("%q", missingFrameNames[k]))
		}
	}
	return Warning{Kind: WarnMissingNodes, Message: fmt.Sprintf("%s: they are kept under %d placeholder nodes (%s), with %s%s",
		msg, len(m.placeholder), strings.Join(names, ", "), fmtMicros(kept/1000), share)}
}

// timeUnder returns the weight of the samples under a placeholder, and of
// all samples. Each node is walked up once.
func (m *missingNodes) timeUnder(p *Profile) (kept, total int64) {
	const unknown, under, notUnder = 0, 1, 2
	state := make([]uint8, len(p.Nodes))
	for _, n := range m.placeholder {
		state[n] = under
	}
	var path []int32
	for i := range p.Nodes {
		path = path[:0]
		j := int32(i)
		for j >= 0 && state[j] == unknown {
			path = append(path, j)
			j = p.Nodes[j].Parent
		}
		v := uint8(notUnder)
		if j >= 0 {
			v = state[j]
		}
		for _, k := range path {
			state[k] = v
		}
	}
	for _, s := range p.Samples {
		total += s.Weight
		if state[s.Node] == under {
			kept += s.Weight
		}
	}
	return kept, total
}
