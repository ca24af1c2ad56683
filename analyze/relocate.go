package analyze

import "strings"

// Relocate keys the table's functions, files and lines by paths relative
// to root (a directory ending in "/"): a file under root loses that
// prefix, so that two checkouts of one program at different paths key the
// same file alike. Files elsewhere, URLs and built-ins keep their names;
// packages are not changed (they were named from the full paths). An
// empty root changes nothing.
func (t *Table) Relocate(root string) {
	if root == "" {
		return
	}
	for _, rows := range [][]Row{t.Functions, t.Files} {
		for i := range rows {
			rows[i].Key.File = Relative(rows[i].Key.File, root)
		}
	}
	for i := range t.Lines {
		t.Lines[i].Function.File = Relative(t.Lines[i].Function.File, root)
	}
}

// Relocate is Table.Relocate for a profile's frames (their files as
// recorded or mapped; the bundle positions in Generated are kept as
// recorded).
func (p *Profile) Relocate(root string) {
	if root == "" {
		return
	}
	for i := range p.Frames {
		p.Frames[i].File = Relative(p.Frames[i].File, root)
	}
}

// Relative returns file relative to root (a directory ending in "/") when
// it lies below it, else file itself.
func Relative(file, root string) string {
	if root != "" && len(file) > len(root) && strings.HasPrefix(file, root) {
		return file[len(root):]
	}
	return file
}
