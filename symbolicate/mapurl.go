package symbolicate

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"io"
	"net/url"
	"os"
	"strings"
)

// maxScriptTail bounds how much of a script is read looking for its
// sourceMappingURL comment (an inline map can be large).
const maxScriptTail = 256 << 20

// SourceMappingURL returns the value of the last //# sourceMappingURL= (or
// legacy //@) comment of a script, reading backwards from its end in growing
// windows so that a large script is not read whole unless its map is inline.
// It reports "" when the script has none. Only white space and other line
// comments may follow the comment, as the spec's extraction requires.
func SourceMappingURL(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	return SourceMappingURLOf(f)
}

// SourceMappingURLOf is SourceMappingURL of a script already open.
func SourceMappingURLOf(f *os.File) (string, error) {
	path := f.Name()
	st, err := f.Stat()
	if err != nil {
		return "", err
	}
	size := st.Size()
	for window := int64(64 << 10); ; window *= 4 {
		start := max(size-window, 0)
		if size-start > maxScriptTail {
			return "", fmt.Errorf("%s: sourceMappingURL comment not found in the last %d MiB", path, maxScriptTail>>20)
		}
		buf := make([]byte, size-start)
		if _, err := f.ReadAt(buf, start); err != nil && err != io.EOF {
			return "", err
		}
		if v, ok := extractMapURL(buf, start == 0); ok {
			return v, nil
		}
		if start == 0 {
			return "", nil
		}
	}
}

// extractMapURL finds the trailing sourceMappingURL comment in the tail of
// a script. complete says whether tail is the whole script; when it is not,
// a comment that may begin before the tail is reported as not found (ok
// false) so that the caller reads more.
func extractMapURL(tail []byte, complete bool) (string, bool) {
	rest := tail
	for len(rest) > 0 {
		// Take the last line.
		end := len(rest)
		for end > 0 && (rest[end-1] == '\n' || rest[end-1] == '\r') {
			end--
		}
		if end == 0 {
			return "", true
		}
		nl := bytes.LastIndexAny(rest[:end], "\r\n")
		if nl < 0 && !complete {
			return "", false // the line may start before the tail
		}
		line := bytes.TrimSpace(rest[nl+1 : end])
		rest = rest[:nl+1]
		if len(line) == 0 {
			continue
		}
		if !bytes.HasPrefix(line, []byte("//")) {
			return "", true // code: no trailing comment names a map
		}
		c := bytes.TrimLeft(line[2:], " \t")
		if len(c) > 0 && (c[0] == '#' || c[0] == '@') {
			c = bytes.TrimLeft(c[1:], " \t")
			if v, ok := bytes.CutPrefix(c, []byte("sourceMappingURL=")); ok {
				if i := bytes.IndexAny(v, " \t"); i >= 0 {
					v = v[:i]
				}
				return string(v), true
			}
		}
		if nl < 0 {
			return "", true
		}
	}
	return "", complete
}

// decodeDataURL returns the bytes of a data: URL (base64 or percent-encoded).
func decodeDataURL(u string) ([]byte, error) {
	rest, ok := strings.CutPrefix(u, "data:")
	if !ok {
		return nil, fmt.Errorf("not a data: URL")
	}
	meta, data, ok := strings.Cut(rest, ",")
	if !ok {
		return nil, fmt.Errorf("data: URL without a comma")
	}
	if strings.HasSuffix(meta, ";base64") {
		data = strings.TrimRight(data, "=")
		b, err := base64.RawStdEncoding.DecodeString(data)
		if err != nil {
			b, err = base64.RawURLEncoding.DecodeString(data)
		}
		if err != nil {
			return nil, fmt.Errorf("data: URL: bad base64: %v", err)
		}
		return b, nil
	}
	s, err := url.PathUnescape(data)
	if err != nil {
		return nil, fmt.Errorf("data: URL: %v", err)
	}
	return []byte(s), nil
}
