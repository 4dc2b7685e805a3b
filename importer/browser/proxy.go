package browser

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httputil"
	"strings"
	"sync"
	"time"

	"larder/importer/fetch"
)

// maxTransfer bounds what one proxied response or tunnel may carry, so a
// page that streams video or a huge file cannot exhaust memory or the
// network; a recipe page needs far less.
const maxTransfer = 64 << 20

// refusedHeader marks a response the proxy made itself because the address
// rules refused the request, so Render can tell it from the site's own 403.
const refusedHeader = "X-Larder-Refused"

// proxy is the forward proxy Chrome must send every request through. Chrome
// resolves nothing and connects nowhere itself: plain http requests are
// forwarded and https (and wss) arrive as CONNECT tunnels, and in both cases
// the outbound connection is made by dial, the fetch client's checked
// dialer.
type proxy struct {
	dial    func(ctx context.Context, network, addr string) (net.Conn, error)
	ln      net.Listener
	srv     *http.Server
	forward *httputil.ReverseProxy

	mu      sync.Mutex
	refused map[string]error // host:port → why the last dial to it failed
	tunnels sync.WaitGroup
	conns   map[net.Conn]struct{} // hijacked tunnel ends, closed on shutdown
	closed  bool
}

func startProxy(dial func(ctx context.Context, network, addr string) (net.Conn, error), timeout time.Duration) (*proxy, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	p := &proxy{dial: dial, ln: ln, refused: map[string]error{}, conns: map[net.Conn]struct{}{}}
	transport := &http.Transport{
		Proxy:                 nil,
		DialContext:           p.dialRecord,
		ResponseHeaderTimeout: timeout,
		IdleConnTimeout:       30 * time.Second,
		MaxIdleConnsPerHost:   4,
		// Chrome asked for the encodings it wants; pass bodies through.
		DisableCompression: true,
	}
	p.forward = &httputil.ReverseProxy{
		// The inbound request is in absolute form (GET http://host/path),
		// so the outbound URL is simply the same URL. Rewrite (not
		// Director) also drops any X-Forwarded-* Chrome might send.
		Rewrite: func(pr *httputil.ProxyRequest) {
			pr.Out.URL = pr.In.URL
			pr.Out.Host = pr.In.Host
		},
		Transport: transport,
		ModifyResponse: func(resp *http.Response) error {
			resp.Body = &cappedBody{ReadCloser: resp.Body, left: maxTransfer}
			return nil
		},
		ErrorHandler: func(w http.ResponseWriter, r *http.Request, err error) {
			p.writeError(w, err)
		},
		ErrorLog: nil,
	}
	p.srv = &http.Server{Handler: p, ReadHeaderTimeout: 10 * time.Second}
	go p.srv.Serve(ln)
	return p, nil
}

func (p *proxy) addr() string { return p.ln.Addr().String() }

func (p *proxy) close() {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	p.srv.Shutdown(ctx)
	p.mu.Lock()
	p.closed = true
	for c := range p.conns {
		c.Close()
	}
	p.mu.Unlock()
	p.tunnels.Wait()
	if t, ok := p.forward.Transport.(*http.Transport); ok {
		t.CloseIdleConnections()
	}
}

// dialRecord dials and remembers why a dial failed, so a navigation that
// Chrome reports only as "tunnel connection failed" gets the real reason.
func (p *proxy) dialRecord(ctx context.Context, network, addr string) (net.Conn, error) {
	conn, err := p.dial(ctx, network, addr)
	p.mu.Lock()
	if err != nil {
		if len(p.refused) > 1000 {
			clear(p.refused) // only recent failures matter
		}
		p.refused[strings.ToLower(addr)] = err
	} else {
		delete(p.refused, strings.ToLower(addr))
	}
	p.mu.Unlock()
	return conn, err
}

// lastError returns why the last dial to hostport failed, or nil.
func (p *proxy) lastError(hostport string) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.refused[strings.ToLower(hostport)]
}

func (p *proxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch {
	case r.Method == http.MethodConnect:
		p.tunnel(w, r)
	case r.URL.IsAbs() && strings.EqualFold(r.URL.Scheme, "http") && r.URL.Host != "":
		p.forward.ServeHTTP(w, r)
	default:
		// ftp://, file:// and anything that is not a proxy request.
		w.Header().Set(refusedHeader, fetch.CodeInvalidURL)
		http.Error(w, "only http and https are fetched", http.StatusBadRequest)
	}
}

func (p *proxy) tunnel(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), 15*time.Second)
	defer cancel()
	upstream, err := p.dialRecord(ctx, "tcp", r.Host)
	if err != nil {
		p.writeError(w, err)
		return
	}
	hj, ok := w.(http.Hijacker)
	if !ok {
		upstream.Close()
		http.Error(w, "cannot tunnel", http.StatusInternalServerError)
		return
	}
	client, buf, err := hj.Hijack()
	if err != nil {
		upstream.Close()
		return
	}
	if _, err := io.WriteString(client, "HTTP/1.1 200 Connection Established\r\n\r\n"); err != nil {
		client.Close()
		upstream.Close()
		return
	}
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		client.Close()
		upstream.Close()
		return
	}
	p.conns[client] = struct{}{}
	p.conns[upstream] = struct{}{}
	p.tunnels.Add(1)
	p.mu.Unlock()
	go func() {
		defer p.tunnels.Done()
		done := make(chan struct{}, 2)
		go func() {
			// buf holds anything Chrome sent after the CONNECT line.
			io.Copy(upstream, buf)
			closeWrite(upstream)
			done <- struct{}{}
		}()
		go func() {
			io.CopyN(client, upstream, maxTransfer)
			closeWrite(client)
			done <- struct{}{}
		}()
		<-done
		// One side is finished; give the other a moment to drain, then
		// end the tunnel so a half-open peer cannot hold it forever.
		deadline := time.Now().Add(5 * time.Second)
		client.SetDeadline(deadline)
		upstream.SetDeadline(deadline)
		<-done
		client.Close()
		upstream.Close()
		p.mu.Lock()
		delete(p.conns, client)
		delete(p.conns, upstream)
		p.mu.Unlock()
	}()
}

func closeWrite(c net.Conn) {
	if tc, ok := c.(interface{ CloseWrite() error }); ok {
		tc.CloseWrite()
	} else {
		c.Close()
	}
}

// writeError answers for a failed outbound request. A refusal by the address
// rules is a 403 marked with refusedHeader.
func (p *proxy) writeError(w http.ResponseWriter, err error) {
	if fe := fetch.AsError(err); fe != nil {
		w.Header().Set(refusedHeader, fe.Code)
		status := http.StatusForbidden
		if fe.Code == fetch.CodeTimeout {
			status = http.StatusGatewayTimeout
		} else if fe.Code != fetch.CodeForbiddenAddress && fe.Code != fetch.CodeInvalidURL {
			status = http.StatusBadGateway
		}
		http.Error(w, fe.Message, status)
		return
	}
	var ne net.Error
	if errors.Is(err, context.DeadlineExceeded) || (errors.As(err, &ne) && ne.Timeout()) {
		http.Error(w, "timed out", http.StatusGatewayTimeout)
		return
	}
	http.Error(w, "could not reach the site", http.StatusBadGateway)
}

// cappedBody fails a response body that runs past its allowance; the
// reverse proxy then aborts the response to Chrome.
type cappedBody struct {
	io.ReadCloser
	left int64
}

var errTransferCap = errors.New("response larger than the proxy allows")

func (b *cappedBody) Read(p []byte) (int, error) {
	if b.left <= 0 {
		return 0, errTransferCap
	}
	if int64(len(p)) > b.left {
		p = p[:b.left]
	}
	n, err := b.ReadCloser.Read(p)
	b.left -= int64(n)
	return n, err
}
