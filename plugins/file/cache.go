package file

import (
	"bytes"
	"context"
	"crypto/sha256"
	"io"
	"os"
	"sync"
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
}

// cachedRow is one decoded row; its object is never changed once cached
// (the mapper only reads it).
type cachedRow struct {
	line int
	obj  map[string]any
}

// rowCache keeps the decoded rows of the last file a source read in full,
// so a warm Ground and Fetch of an unchanged file skip decoding it.
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

// decodeCached is in.decode, served from c while the file's content is
// unchanged: a regular file of a row format of at most maxCachedFile bytes
// is read whole and hashed, and its rows, when it decodes without error,
// are kept, replacing the source's previous file. Reading and hashing cost
// a fraction of decoding, and no time stamp can make the kept rows stale.
func (in input) decodeCached(ctx context.Context, c *rowCache, fn rowFunc) error {
	if c == nil || in.format == FormatMarkdown {
		return in.decode(ctx, fn)
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
		return in.decodeOpened(ctx, rc, fn)
	}
	data, err := io.ReadAll(io.LimitReader(f, maxCachedFile+1))
	f.Close()
	if err != nil || len(data) > maxCachedFile {
		return in.decode(ctx, fn) // as before: streamed, with its read error
	}
	k := fileKey{path: in.name, format: in.format, sum: sha256.Sum256(data)}
	if rows, hit := c.get(k); hit {
		for _, r := range rows {
			if err := fn(r.line, r.obj); err != nil {
				return err
			}
		}
		return nil
	}
	var rows []cachedRow
	err = in.decodeOpened(ctx, io.NopCloser(bytes.NewReader(data)), func(line int, obj map[string]any) error {
		rows = append(rows, cachedRow{line, obj})
		return fn(line, obj)
	})
	if err == nil {
		c.put(k, rows)
	}
	return err
}
