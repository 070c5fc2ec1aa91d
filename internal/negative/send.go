package negative

import (
	"bufio"
	"bytes"
	"io"
	"net"
	"net/http"
	"strconv"
	"time"
)

// Response is what the server answered to one Request.
type Response struct {
	Status int
	Header http.Header
	// Body holds at most MaxRead bytes; Size is the whole body's length.
	Body []byte
	Size int
}

// MaxRead is how much of an answer Send keeps.
const MaxRead = 64 << 10

// Send writes req as raw HTTP/1.1 bytes to addr (host:port), so that
// values no client library would send (NUL or invalid UTF-8 in a header or
// path, a malformed % escape) reach the server as they are.
func Send(addr string, req Request, timeout time.Duration) (*Response, error) {
	conn, err := net.DialTimeout("tcp", addr, timeout)
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(timeout))
	var head bytes.Buffer
	head.WriteString(req.Method + " " + req.Target + " HTTP/1.1\r\nHost: " + addr + "\r\n")
	for _, h := range req.Header {
		head.WriteString(h[0] + ": " + h[1] + "\r\n")
	}
	head.WriteString("Content-Length: " + strconv.Itoa(len(req.Body)) + "\r\nConnection: close\r\n\r\n")
	// The server may answer (and stop reading) before the body is sent:
	// write in the background and read the answer meanwhile.
	go func() {
		if _, err := conn.Write(head.Bytes()); err == nil && len(req.Body) > 0 {
			_, _ = conn.Write(req.Body)
		}
	}()
	res, err := http.ReadResponse(bufio.NewReader(conn), &http.Request{Method: req.Method})
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	body, err := io.ReadAll(io.LimitReader(res.Body, MaxRead))
	if err != nil {
		return nil, err
	}
	n, _ := io.Copy(io.Discard, res.Body)
	return &Response{Status: res.StatusCode, Header: res.Header, Body: body, Size: len(body) + int(n)}, nil
}
