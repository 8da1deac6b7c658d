package host2plugin

import (
	"context"
	"fmt"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/nous-dev/nous/sdk"
	"github.com/nous-dev/nous/sdk/internal/fromproto"
	"github.com/nous-dev/nous/sdk/internal/wire"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc/mem"
)

// countingPool is a buffer pool that counts what it lends and gets back.
type countingPool struct {
	mu        sync.Mutex
	gets, put int
}

func (p *countingPool) Get(n int) *[]byte {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.gets++
	b := make([]byte, n)
	return &b
}

func (p *countingPool) Put(*[]byte) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.put++
}

// sentChunks records what a chunker sends, through the real codec, as
// gRPC would: marshal, write, free.
type sentChunks struct {
	mu     sync.Mutex
	chunks [][]sdk.Record
}

func (s *sentChunks) send(t *testing.T) func(any) error {
	return func(m any) error {
		data, err := wire.Codec{}.Marshal(m)
		require.NoError(t, err)
		bytes := data.Materialize()
		data.Free()
		s.mu.Lock()
		defer s.mu.Unlock()
		s.chunks = append(s.chunks, readAll(t, bytes))
		return nil
	}
}

func (s *sentChunks) get() [][]sdk.Record {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.chunks
}

func TestChunkerSendsFullChunksAndTheRestOnClose(t *testing.T) {
	pool := &countingPool{}
	var sent sentChunks
	c := &chunker{ctx: context.Background(), send: sent.send(t), pool: pool, age: time.Hour}
	var want []sdk.Record
	for i := range chunkRecords + 3 {
		r := sdk.Record{ID: fmt.Sprint(i), Fields: map[string]any{"n": int64(i)}}
		want = append(want, r)
		require.NoError(t, c.emit(r))
	}
	require.NoError(t, c.close())

	chunks := sent.get()
	require.Len(t, chunks, 2)
	require.Len(t, chunks[0], chunkRecords)
	assert.True(t, reflect.DeepEqual(want, append(chunks[0], chunks[1]...)), "the records arrive intact and in order")
	assert.Equal(t, pool.gets, pool.put, "every buffer goes back to the pool")
	assert.EqualError(t, c.emit(sdk.Record{ID: "late"}), "emit: Fetch has already returned")
}

func TestChunkerSkipsARecordItCannotEncode(t *testing.T) {
	pool := &countingPool{}
	var sent sentChunks
	c := &chunker{ctx: context.Background(), send: sent.send(t), pool: pool, age: time.Hour}
	require.NoError(t, c.emit(sdk.Record{ID: "a"}))
	err := c.emit(sdk.Record{ID: "bad", Fields: map[string]any{"x": uint8(1)}})
	assert.EqualError(t, err, `emit: record "bad": field "x": unsupported value type uint8 (want string, int64, float64, bool, time.Time or []string)`)
	require.NoError(t, c.emit(sdk.Record{ID: "b"}))
	require.NoError(t, c.close())
	assert.Equal(t, [][]sdk.Record{{{ID: "a"}, {ID: "b"}}}, sent.get())
	assert.Equal(t, pool.gets, pool.put)
}

func TestChunkerReturnsAnUnusedBuffer(t *testing.T) {
	pool := &countingPool{}
	var sent sentChunks
	c := &chunker{ctx: context.Background(), send: sent.send(t), pool: pool, age: time.Hour}
	require.Error(t, c.emit(sdk.Record{ID: "bad", Fields: map[string]any{"x": struct{}{}}}))
	require.NoError(t, c.close())
	assert.Empty(t, sent.get(), "nothing to send")
	assert.Equal(t, 1, pool.gets)
	assert.Equal(t, 1, pool.put)
}

func TestChunkerSendsAWaitingChunkAfterItsAge(t *testing.T) {
	var sent sentChunks
	c := &chunker{ctx: context.Background(), send: sent.send(t), pool: mem.DefaultBufferPool(), age: time.Millisecond}
	require.NoError(t, c.emit(sdk.Record{ID: "only"}))
	require.Eventually(t, func() bool { return len(sent.get()) == 1 }, 5*time.Second, time.Millisecond)
	assert.Equal(t, [][]sdk.Record{{{ID: "only"}}}, sent.get())
	require.NoError(t, c.close())
	assert.Len(t, sent.get(), 1, "close has nothing left to send")
}

func TestChunkerStopsAtTheLimit(t *testing.T) {
	var sent sentChunks
	c := &chunker{ctx: context.Background(), send: sent.send(t), pool: mem.DefaultBufferPool(), age: time.Hour, limit: 2}
	require.NoError(t, c.emit(sdk.Record{ID: "1"}))
	require.NoError(t, c.emit(sdk.Record{ID: "2"}))
	assert.ErrorIs(t, c.emit(sdk.Record{ID: "3"}), errLimitReached)
	require.NoError(t, c.close())
	assert.Equal(t, [][]sdk.Record{{{ID: "1"}, {ID: "2"}}}, sent.get())
}

func TestChunkPoolLendsBuffersOfTheAskedLengthAndDropsHugeOnes(t *testing.T) {
	var p chunkPool
	b := p.Get(chunkBytes)
	assert.Len(t, *b, chunkBytes)
	*b = append((*b)[:0], "used"...)
	p.Put(b)
	again := p.Get(10)
	assert.Len(t, *again, 10, "a reused buffer is cut to the asked length")

	huge := make([]byte, 0, 4*chunkBytes)
	p.Put(&huge)
	for range 3 {
		assert.LessOrEqual(t, cap(*p.Get(chunkBytes)), 2*chunkBytes, "a buffer grown by a huge record is not kept")
	}
}

// readAll reads the records of one sent chunk.
func readAll(t *testing.T, chunk []byte) []sdk.Record {
	t.Helper()
	var c fromproto.ChunkReader
	c.Reset(chunk)
	var got []sdk.Record
	for {
		r, ok, err := c.Next()
		require.NoError(t, err)
		if !ok {
			return got
		}
		got = append(got, r)
	}
}
