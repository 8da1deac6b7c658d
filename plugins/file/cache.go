package file

import (
	"bytes"
	"context"
	"crypto/sha256"
	"io"
	"os"
	"sync"

	"github.com/nous-dev/nous/sdk"
)

// maxCachedFile bounds the size of the file whose rows a source keeps
// between calls, as maxRow bounds one row: its decoded rows take some
// times its size in memory.
const maxCachedFile = maxRow

// fileKey identifies one version of a file by its content: whatever
// changed it, or when, other bytes are another key.
type fileKey struct {
	path, format string
	sum          [sha256.Size]byte
	mapping      mapping // how its rows became records
}

// cachedRow is one decoded row's record; it is never changed once cached
// (Ground and the filters only read it, and Fetch emits a copy).
type cachedRow struct {
	line int
	rec  sdk.Record
}

// rowCache keeps the records of the rows of the last file a source read in
// full, so a warm Ground and Fetch of an unchanged file skip decoding it
// and mapping its rows.
type rowCache struct {
	mu   sync.Mutex
	key  fileKey
	rows []cachedRow // nil: nothing cached
}

func (c *rowCache) get(k fileKey) ([]cachedRow, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.rows, c.rows != nil && c.key == k
}

func (c *rowCache) put(k fileKey, rows []cachedRow) {
	if rows == nil {
		rows = []cachedRow{}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.key, c.rows = k, rows
}

// forget drops the kept rows.
func (c *rowCache) forget() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.key, c.rows = fileKey{}, nil
}

// decodeCached calls fn with the record m makes of each row of in, the
// records served from c while the file's content is unchanged: a regular
// file of a row format of at most maxCachedFile bytes is read whole and
// hashed, and its records, when every row decodes and maps without error,
// are kept, replacing the source's previous file. Reading and hashing cost
// a fraction of decoding, and no time stamp can make the kept rows stale.
func (in input) decodeCached(ctx context.Context, c *rowCache, m mapper, fn recordFunc) error {
	mapped := func(line int, obj map[string]any) error {
		rec, err := m.record(in.name, line, obj)
		if err != nil {
			return err
		}
		return fn(line, rec)
	}
	if c == nil || in.format == FormatMarkdown {
		return in.decode(ctx, mapped)
	}
	rc, err := in.open()
	if err != nil {
		return err
	}
	f, ok := rc.(*os.File)
	var fi os.FileInfo
	if ok {
		fi, err = f.Stat()
	}
	if !ok || err != nil || !fi.Mode().IsRegular() || fi.Size() > maxCachedFile {
		return in.decodeOpened(ctx, rc, mapped)
	}
	// Read into a buffer of the file's size (and room to see EOF), not
	// io.ReadAll's growing one.
	buf := bytes.NewBuffer(make([]byte, 0, fi.Size()+bytes.MinRead))
	_, err = buf.ReadFrom(io.LimitReader(f, maxCachedFile+1))
	data := buf.Bytes()
	f.Close()
	if err != nil || len(data) > maxCachedFile {
		return in.decode(ctx, mapped) // as before: streamed, with its read error
	}
	k := fileKey{path: in.name, format: in.format, sum: sha256.Sum256(data), mapping: m.mapping}
	if rows, hit := c.get(k); hit {
		for _, r := range rows {
			if err := fn(r.line, r.rec); err != nil {
				return err
			}
		}
		return nil
	}
	var rows []cachedRow
	err = in.decodeOpened(ctx, io.NopCloser(bytes.NewReader(data)), func(line int, obj map[string]any) error {
		rec, err := m.record(in.name, line, obj)
		if err != nil {
			return err
		}
		rows = append(rows, cachedRow{line, rec})
		return fn(line, rec)
	})
	if err == nil {
		c.put(k, rows)
	}
	return err
}
