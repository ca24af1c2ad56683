// Package tui is profdiff's interactive terminal explorer over the same
// report values the text and markdown renderers write: tabs of packages,
// functions, files and the paths where the comparison changed; sorting,
// filtering as you type, hiding noise; drilling from a package or a file to
// its functions, from a function to its own time, its callers and callees
// and its source, and from a path to where it ends. Every screen keeps its
// own filter, sort and selected row, so that going back finds them as they
// were. Update and View are plain functions of the model, so that tests can
// drive them without a terminal.
//
// The explorer joins and judges nothing itself: it reads one judged
// diff.Report and formats its cells through report.View.
package tui

import (
	"io"
	"regexp"

	tea "charm.land/bubbletea/v2"

	"github.com/profdiff/profdiff/analyze"
	"github.com/profdiff/profdiff/diff"
	"github.com/profdiff/profdiff/report"
)

// Input is what the explorer shows.
type Input struct {
	// Report is the judged comparison (or the one profile): its rows carry
	// self and total time, each judged, its calls the callers and callees,
	// its lines the per-line times, its paths where the change happened.
	Report *diff.Report
	// Sort is the metric shown first (t switches).
	Sort diff.Metric
	// Color styles verdicts and the cursor; false under NO_COLOR.
	Color bool
	// Source returns side's text of a file named by a function row (from
	// its source maps' sourcesContent or from disk); nil for none. side
	// indexes Several.Sides when Several is set, else Report.Sides: the
	// source pane shows the first and the last side's texts, aligned as a
	// line diff when they differ.
	Source func(side int, file string) (string, bool)
	// SourceWhy says why Source has no text for a file ("outside the
	// profile's folders"); nil or "" for no reason to give.
	SourceWhy func(file string) string
	// Narrow, when set, compares again narrowed by flags on top of the
	// command's own ("--focus", "RE", "--ignore", "RE", ... in order) and
	// returns the new report: the f, i and x keys add the selected row as
	// a focus, ignore or hide filter, u takes the last one back.
	Narrow func(flags []string) (*diff.Report, error)
	// WriteHTML writes the HTML report of what the explorer shows and
	// returns the file's path; nil when this build cannot write one.
	WriteHTML func() (path string, err error)
	// Several, for a base and several variants (a report laid out as a
	// table of sides), is the whole report: Report is then the pair of
	// its variant Several.Variants()[Variant], and each row shows the
	// other variants' changes in a column each; v shows the next variant.
	// Nil otherwise.
	Several *diff.Report
	Variant int
	// Rebase, when set, compares the sides of Several again with the side
	// base as the base (b).
	Rebase func(base int) (*diff.Report, error)
}

// kind is what a screen lists.
type kind int

const (
	kindPackages  kind = iota
	kindFunctions      // every function
	kindFiles
	kindPaths   // the paths that carry the change
	kindPackage // the functions of one package
	kindFile    // the functions of one file
	kindCalls   // one function: its own time, callers, callees, source
)

var kindNames = [...]string{"packages", "functions", "files", "where it changed"}

// shortKindNames are the tabs' names on a narrow terminal.
var shortKindNames = [...]string{"pkgs", "funcs", "files", "changed"}

// overlay is what covers the screen, if anything.
type overlay int

const (
	overlayNone overlay = iota
	overlayHelp
	overlayWarnings
	overlayStalls
)

// screen is one level of the drill-down, with its own filter, sort,
// selection and (for a function) source pane.
type screen struct {
	kind   kind
	pkg    string      // kindPackage
	file   analyze.Key // kindFile: the file row's key
	fnRow  int32       // kindCalls: the function's row in the report
	cursor int
	offset int
	// sel is the key of the selected row when the screen was left for a
	// deeper one, to find it again on the way back.
	sel       analyze.Key
	selPath   int
	filter    *regexp.Regexp
	filterSrc string
	// sortCol is the column sorted by (numeric columns, then the name);
	// -1 for the report's order. sortRev reverses it.
	sortCol int
	sortRev bool
	// The source pane (kindCalls): focus, the selected row of the
	// function's listing and the first row shown (1-based; 0: chosen so
	// that the selection shows). Without alignment, rows are lines.
	srcFocus bool
	srcLine  int32
	srcTop   int32
}

// Model is the explorer's state.
type Model struct {
	in    Input
	view  *report.View
	total bool
	stack []screen
	// tabs keeps each tab's screen while another tab is shown.
	tabs      map[kind]screen
	editing   bool // typing a filter
	draft     string
	before    string // the filter when typing began, for esc
	hideNoise bool
	width     int
	height    int
	overlay   overlay
	ovOffset  int
	// status is a one-time message in the footer, cleared by the next key.
	status string
	// narrowed are the flags the f, i and x keys added, in order.
	narrowed []string
	keys     keyMap
	src      *sourceCache
	// sides finds rows in Input.Several; nil without it.
	sides *sidesIndex
}

// New returns the explorer's model, opening on the packages.
func New(in Input) Model {
	m := Model{in: in, view: report.NewView(in.Report), total: in.Sort == diff.MetricTotal,
		stack: []screen{{kind: kindPackages, sortCol: -1}}, tabs: map[kind]screen{},
		width: 80, height: 24, keys: newKeyMap(), src: newSourceCache()}
	if in.Several != nil && in.Several.Judged() {
		m.showSides(in.Several, in.Variant)
	}
	return m
}

// explorerFPS is the explorer's frame rate (see Run).
const explorerFPS = 20

// Run runs the explorer on a terminal until the user quits. A width and
// height of 0 take the terminal's size; others fix it (for output that is no
// terminal).
func Run(in Input, input io.Reader, output io.Writer, width, height int) error {
	// The renderer wakes at its frame rate even when nothing changes
	// (bubbletea's ticker): 60 a second cost an idle explorer 0.8% of a
	// core; tables need no animation, and 20 frames keep a key's answer
	// within 50 ms.
	opts := []tea.ProgramOption{tea.WithInput(input), tea.WithOutput(output), tea.WithFPS(explorerFPS)}
	if width > 0 && height > 0 {
		opts = append(opts, tea.WithWindowSize(width, height))
	}
	_, err := tea.NewProgram(New(in), opts...).Run()
	return err
}

// Init starts nothing.
func (m Model) Init() tea.Cmd { return nil }

func (m Model) report() *diff.Report { return m.in.Report }

// metric is the time the rows show and judge: self, or total.
func (m Model) metric() diff.Metric {
	if m.total {
		return diff.MetricTotal
	}
	return diff.MetricSelf
}

// compares reports whether the explorer shows changes between sides: its
// table of functions' columns hold a change.
func (m Model) compares() bool {
	t := report.Table{Columns: m.view.RowsColumns(report.RowsRequest{Of: report.TableFunctions, By: m.metric()})}
	return t.Changes()
}

func (m Model) top() *screen { return &m.stack[len(m.stack)-1] }

// tabKinds are the top-level views: "where it changed" only for a
// comparison.
func (m Model) tabKinds() []kind {
	if m.compares() {
		return []kind{kindPackages, kindFunctions, kindFiles, kindPaths}
	}
	return []kind{kindPackages, kindFunctions, kindFiles}
}
