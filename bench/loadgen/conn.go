package main

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"time"
)

// sender sends one worker's requests, one at a time.
type sender interface {
	send(req *http.Request) (status int, err error)
	close()
}

// clientSender sends through net/http's Client (its Transport's pool).
type clientSender struct{ c *http.Client }

func (s clientSender) send(req *http.Request) (int, error) { return roundTrip(s.c, req) }
func (clientSender) close()                                {}

// connSender is one worker's own keep-alive connection, used without
// net/http's Transport: the worker writes the request with Request.Write
// and reads the answer with http.ReadResponse on its own goroutine. The
// Transport runs two goroutines per connection and hands every request
// and answer between them over channels; on a machine whose two cores the
// client shares with the server and PostgreSQL, that cost loadgen about
// 35 µs of processor time per wallet/check against wrk's 14, time the
// server then did not get (bench/results/2026-11-28-lean-client.md).
type connSender struct {
	addr    string
	timeout time.Duration
	conn    net.Conn
	r       *bufio.Reader
	w       *bufio.Writer
}

func newConnSender(addr string, timeout time.Duration) *connSender {
	return &connSender{addr: addr, timeout: timeout}
}

// send answers the status of req's answer. The connection is dropped
// after an error or an answer that closes it, and dialled again for the
// next request.
func (s *connSender) send(req *http.Request) (int, error) {
	if s.conn == nil {
		d := net.Dialer{Timeout: 5 * time.Second, Control: refuseNonLoopback}
		conn, err := d.Dial("tcp", s.addr)
		if err != nil {
			return 0, err
		}
		s.conn, s.r, s.w = conn, bufio.NewReader(conn), bufio.NewWriter(conn)
	}
	status, keep, err := s.exchange(req)
	if err != nil || !keep {
		s.close()
	}
	return status, err
}

func (s *connSender) exchange(req *http.Request) (status int, keep bool, err error) {
	if err := s.conn.SetDeadline(time.Now().Add(s.timeout)); err != nil {
		return 0, false, err
	}
	if err := req.Write(s.w); err != nil {
		return 0, false, err
	}
	if err := s.w.Flush(); err != nil {
		return 0, false, err
	}
	resp, err := http.ReadResponse(s.r, req)
	if err != nil {
		return 0, false, err
	}
	_, err = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode, !resp.Close, err
}

func (s *connSender) close() {
	if s.conn != nil {
		s.conn.Close()
		s.conn = nil
	}
}
