package tui

import "charm.land/bubbles/v2/key"

// keyMap holds the key bindings; the help screen is generated from it.
type keyMap struct {
	Up, Down, PageUp, PageDown, Top, Bottom key.Binding
	NextTab, PrevTab, Enter, Back           key.Binding
	Filter, Sort, Reverse, Total, Noise     key.Binding
	NextHot, PrevHot, Warnings, HTML, Help  key.Binding
	Stalls                                  key.Binding
	Focus, Ignore, Hide, Undo               key.Binding
	Variant, Base                           key.Binding
	Quit                                    key.Binding
}

func newKeyMap() keyMap {
	b := func(keys []string, k, d string) key.Binding {
		return key.NewBinding(key.WithKeys(keys...), key.WithHelp(k, d))
	}
	return keyMap{
		Up:       b([]string{"up", "k"}, "↑/k", "up"),
		Down:     b([]string{"down", "j"}, "↓/j", "down"),
		PageUp:   b([]string{"pgup", "ctrl+b"}, "pgup", "page up"),
		PageDown: b([]string{"pgdown", "ctrl+f", "space"}, "pgdn", "page down"),
		Top:      b([]string{"home", "g"}, "g", "top"),
		Bottom:   b([]string{"end", "G"}, "G", "bottom"),
		NextTab:  b([]string{"tab", "right", "l"}, "tab", "next view/source"),
		PrevTab:  b([]string{"shift+tab", "left", "h"}, "shift+tab", "previous view"),
		Enter:    b([]string{"enter"}, "enter", "open"),
		Back:     b([]string{"esc", "backspace"}, "esc", "back"),
		Filter:   b([]string{"/"}, "/", "filter (regexp)"),
		Sort:     b([]string{"s"}, "s", "sort: next column"),
		Reverse:  b([]string{"S"}, "S", "reverse the sort"),
		Total:    b([]string{"t"}, "t", "self/total time"),
		Noise:    b([]string{"n"}, "n", "hide ~ rows"),
		NextHot:  b([]string{"]"}, "]", "next hot line"),
		PrevHot:  b([]string{"["}, "[", "previous hot line"),
		Warnings: b([]string{"w"}, "w", "list warnings"),
		HTML:     b([]string{"H"}, "H", "write HTML report"),
		Stalls:   b([]string{"r"}, "r", "stalls view"),
		Focus:    b([]string{"f"}, "f", "focus on row"),
		Ignore:   b([]string{"i"}, "i", "ignore row"),
		Hide:     b([]string{"x"}, "x", "hide row frames"),
		Undo:     b([]string{"u"}, "u", "undo f/i/x"),
		Variant:  b([]string{"v"}, "v", "next variant"),
		Base:     b([]string{"b"}, "b", "next base"),
		Help:     b([]string{"?"}, "?", "help"),
		Quit:     b([]string{"q", "ctrl+c"}, "q", "quit"),
	}
}

// all lists every binding in the order the help shows them.
func (k keyMap) all() []key.Binding {
	return []key.Binding{k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom,
		k.NextTab, k.PrevTab, k.Enter, k.Back,
		k.Filter, k.Sort, k.Reverse, k.Total, k.Noise,
		k.NextHot, k.PrevHot, k.Warnings, k.Stalls, k.HTML, k.Help, k.Quit, k.Focus, k.Ignore, k.Hide, k.Undo, k.Variant, k.Base}
}
