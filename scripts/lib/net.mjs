import net from 'node:net';

/**
 * A TCP port free on 127.0.0.1 at the time of asking (the OS picks it): for servers a script, a benchmark or a test
 * starts beside the stack. Another process may take it before it is used; the callers start their server at once.
 */
export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}
