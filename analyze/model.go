package analyze

import "slices"

// The operations of the profile model: what every step after reading asks
// of a Profile, each written once.

// OnCPU reports whether sample s counts as on-CPU time: its leaf frame is
// not (idle) or (program).
func (p *Profile) OnCPU(s Sample) bool {
	return p.Frames[p.Nodes[s.Node].Frame].Kind.OnCPU()
}

// OnCPUNs returns the on-CPU time of p's samples, in nanoseconds.
func (p *Profile) OnCPUNs() int64 {
	var sum int64
	for _, s := range p.Samples {
		if p.OnCPU(s) {
			sum += s.Weight
		}
	}
	return sum
}

// SelfByNode returns each node's on-CPU self time: the weight of the on-CPU
// samples that end at it.
func (p *Profile) SelfByNode() []int64 {
	self := make([]int64, len(p.Nodes))
	for _, s := range p.Samples {
		if p.OnCPU(s) {
			self[s.Node] += s.Weight
		}
	}
	return self
}

// SelfByFrame returns each frame's on-CPU self time, summed over the nodes
// that use it.
func (p *Profile) SelfByFrame() []int64 {
	self := make([]int64, len(p.Frames))
	for _, s := range p.Samples {
		if p.OnCPU(s) {
			self[p.Nodes[s.Node].Frame] += s.Weight
		}
	}
	return self
}

// WalkOrder returns the node indexes in depth-first preorder from every
// root, each node's children in index order, or nil when p.Nodes is listed
// in that order already (as Node and Chrome write it). It is iterative:
// stacks a million frames deep are fine.
func (p *Profile) WalkOrder() []int32 {
	if p.inPreorder() {
		return nil
	}
	return p.preorder()
}

// preorder lists the nodes in depth-first preorder, whatever their order
// in p.Nodes.
func (p *Profile) preorder() []int32 {
	nodes := p.Nodes
	n := len(nodes)
	start := make([]int32, n+1) // children of i are kids[start[i]:start[i+1]]
	for _, nd := range nodes {
		if nd.Parent >= 0 {
			start[nd.Parent+1]++
		}
	}
	for i := 1; i <= n; i++ {
		start[i] += start[i-1]
	}
	kids := make([]int32, start[n])
	fill := slices.Clone(start[:n])
	var roots []int32
	for i, nd := range nodes {
		if nd.Parent >= 0 {
			kids[fill[nd.Parent]] = int32(i)
			fill[nd.Parent]++
		} else {
			roots = append(roots, int32(i))
		}
	}
	order := make([]int32, 0, n)
	stack := make([]int32, 0, 64)
	for r := len(roots) - 1; r >= 0; r-- {
		stack = append(stack, roots[r])
	}
	for len(stack) > 0 {
		v := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		order = append(order, v)
		ks := kids[start[v]:start[v+1]]
		for j := len(ks) - 1; j >= 0; j-- {
			stack = append(stack, ks[j])
		}
	}
	return order
}

// inPreorder reports whether the nodes are listed in depth-first preorder:
// each node's parent (if any) is on the path from a root to the node before
// it. Then no walk order need be built and there can be no cycle.
func (p *Profile) inPreorder() bool {
	stack := make([]int32, 0, 64)
	for i, n := range p.Nodes {
		for len(stack) > 0 && stack[len(stack)-1] != n.Parent {
			stack = stack[:len(stack)-1]
		}
		if n.Parent >= 0 && len(stack) == 0 {
			return false
		}
		stack = append(stack, int32(i))
	}
	return true
}

// findCycle returns a node on a parent cycle, or -1. Every node is walked
// towards its root once, so it is linear in the number of nodes.
func (p *Profile) findCycle() int {
	const (
		unseen = iota
		onPath
		done
	)
	nodes := p.Nodes
	state := make([]uint8, len(nodes))
	var path []int32
	for i := range nodes {
		path = path[:0]
		j := int32(i)
		for j >= 0 && state[j] == unseen {
			state[j] = onPath
			path = append(path, j)
			j = nodes[j].Parent
		}
		if j >= 0 && state[j] == onPath {
			return int(j)
		}
		for _, k := range path {
			state[k] = done
		}
	}
	return -1
}

// OneSamplePerTick reports whether each of p's samples is one tick of the
// profiler, weighing the time to the next: a V8 or Chrome profile with
// its samples' times. Then a key's count of samples is a measure of its
// own (Row.SelfSamples); a pprof or folded sample holds a count of ticks
// in its weight, and a V8 profile of hitCounts alone one node's ticks.
func (p *Profile) OneSamplePerTick() bool {
	return p.HasTimestamps && (p.Format == FormatCPUProfile || p.Format == FormatTrace)
}
