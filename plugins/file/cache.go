package file

import (
	"context"
	"os"
	"sync"
	"time"
)

// maxCachedFile bounds the size of the file whose rows a source keeps
// between calls, as maxRow bounds one row: its decoded rows take some
// times its size in memory.
const maxCachedFile = maxRow

// racyWindow is how old a file's modification time must be for its rows
// to be kept: a same-sized write within the file system's time granularity
// (2 s on FAT) would leave the key unchanged, so a file that may still be
// written in its current tick is read anew each time (as git treats
// "racily clean" files).
const racyWindow = 2 * time.Second

// fileKey identifies one version of a file: a write changes its size or
// modification time, a replacement its inode.
type fileKey struct {
	path, format string
	size, mtime  int64
	inode        uint64
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

// decodeCached is in.decode, served from c while the file is unchanged: a
// regular file of a row format below maxCachedFile, last modified over
// racyWindow ago, that decodes without error is kept, replacing the
// source's previous one. The file is opened
// (and checked) as before; only its decoding is skipped.
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
	k := fileKey{path: in.name, format: in.format, size: fi.Size(), mtime: fi.ModTime().UnixNano(), inode: inodeOf(fi)}
	if rows, hit := c.get(k); hit {
		rc.Close()
		for _, r := range rows {
			if err := fn(r.line, r.obj); err != nil {
				return err
			}
		}
		return nil
	}
	var rows []cachedRow
	err = in.decodeOpened(ctx, rc, func(line int, obj map[string]any) error {
		rows = append(rows, cachedRow{line, obj})
		return fn(line, obj)
	})
	if err == nil && time.Since(fi.ModTime()) > racyWindow {
		c.put(k, rows)
	}
	return err
}
