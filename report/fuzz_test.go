package report

import (
	"bytes"
	"html"
	"strings"
	"testing"

	"github.com/profdiff/profdiff/internal/termtext"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	gmhtml "github.com/yuin/goldmark/renderer/html"
)

// FuzzMarkdown renders a name from a profile inside a table cell, as the
// markdown report does, and checks that it stays one inert cell: no element,
// attribute or link of its own, whatever its characters.
func FuzzMarkdown(f *testing.F) {
	for _, s := range []string{
		"a|b", "<script>alert(1)</script>", "<img src=x onerror=alert(1)>", "[x](javascript:alert(1))",
		"@octocat #123", "`code`", "**b** _i_ ~~s~~", "www.evil.test http://evil.test", "a\nb\r\nc",
		"\u202eevil\u202c", "&lt;b&gt;", "\\|\\", "![i](http://x/y.png)", "<https://x.test>",
	} {
		f.Add(s)
	}
	md := goldmark.New(goldmark.WithExtensions(extension.GFM), goldmark.WithRendererOptions(gmhtml.WithUnsafe()))
	f.Fuzz(func(t *testing.T, name string) {
		cell := EscapeMarkdown(name)
		var out bytes.Buffer
		if err := md.Convert([]byte("| a | b |\n|---|---|\n| "+cell+" | z |\n"), &out); err != nil {
			t.Fatal(err)
		}
		h := out.String()
		if strings.Count(h, "<td>") != 2 || strings.Count(h, "<tr>") != 2 {
			t.Fatalf("%q broke the table:\n%s", name, h)
		}
		body := h[strings.Index(h, "<tbody>"):]
		body = strings.NewReplacer("<tbody>", "", "</tbody>", "", "<tr>", "", "</tr>", "", "<td>", "", "</td>", "", "</table>", "").Replace(body)
		if strings.ContainsAny(body, "<>") {
			t.Fatalf("%q renders markup: %s", name, body)
		}
		// And it reads as it was: the escapes are lossless.
		text := strings.TrimSpace(strings.ReplaceAll(html.UnescapeString(body[:strings.LastIndex(body, "z")]), "\u200b", ""))
		if want := strings.TrimSpace(termtext.Clean(name)); text != want && !strings.ContainsAny(want, "\u200b\uFFFD") {
			t.Fatalf("%q renders as %q", want, text)
		}
	})
}
