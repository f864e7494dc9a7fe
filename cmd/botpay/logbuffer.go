package main

import (
	"bufio"
	"io"
	"sync"
	"time"
)

// logBuffer batches log lines into fewer writes: at thousands of requests a
// second, one write system call per access-log line costs several percent
// of the server's CPU. It flushes every 100 ms and on Close, so a killed
// process loses at most that much log.
type logBuffer struct {
	mu   sync.Mutex
	w    *bufio.Writer
	stop chan struct{}
	done chan struct{}
}

const logFlushEvery = 100 * time.Millisecond

func newLogBuffer(w io.Writer) *logBuffer {
	l := &logBuffer{w: bufio.NewWriterSize(w, 64<<10), stop: make(chan struct{}), done: make(chan struct{})}
	go l.flushLoop()
	return l
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

func (l *logBuffer) flush() {
	l.mu.Lock()
	l.w.Flush()
	l.mu.Unlock()
}

func (l *logBuffer) flushLoop() {
	defer close(l.done)
	t := time.NewTicker(logFlushEvery)
	defer t.Stop()
	for {
		select {
		case <-t.C:
			l.flush()
		case <-l.stop:
			l.flush()
			return
		}
	}
}

// Close stops the flusher and writes what is left.
func (l *logBuffer) Close() error {
	close(l.stop)
	<-l.done
	return nil
}
