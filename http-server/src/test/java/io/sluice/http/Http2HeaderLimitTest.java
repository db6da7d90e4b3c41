package io.sluice.http;

import org.eclipse.jetty.http.MetaData;
import org.eclipse.jetty.http2.hpack.HpackDecoder;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Header lists over {@code requestHeaderSize} on HTTP/2, sent over a raw h2c socket (Jetty's and nghttp2's clients
 * refuse to send them, as the server's SETTINGS ask): the request is answered 431 on its own stream, and the other
 * streams of the connection are answered as usual.
 */
class Http2HeaderLimitTest {

    private static final int DATA = 0x0, HEADERS = 0x1, RST_STREAM = 0x3, SETTINGS = 0x4, GOAWAY = 0x7, CONTINUATION = 0x9;

    @TempDir
    static Path certificates;

    static TestPki pki;

    private ServerFixture fixture;

    @BeforeAll
    static void createPki() {
        pki = TestPki.create(certificates);
    }

    @AfterEach
    void stop() {
        if (fixture != null)
            fixture.close();
    }

    @Test
    void headerListOverTheLimit_is431OnItsStream_andTheOthersAreServed() throws Exception {
        fixture = ServerFixture.start(pki);
        int port = fixture.uri(Transport.H2C_PRIOR_KNOWLEDGE, "/").getPort();
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            out.write("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            out.write(frame(SETTINGS, 0, 0, new byte[0]));
            out.write(request(1, "/echo/before"));
            out.write(request(3, "/echo/" + "x".repeat(70 * 1024))); // 64 KiB is the default limit
            out.write(request(5, "/echo/after"));
            out.flush();

            HpackDecoder responseHeaders = new HpackDecoder(1 << 20, System::nanoTime);
            Map<Integer, Integer> statuses = new HashMap<>();
            Map<Integer, ByteArrayOutputStream> bodies = new HashMap<>();
            List<Integer> ended = new ArrayList<>();
            DataInputStream in = new DataInputStream(socket.getInputStream());
            while (ended.size() < 3) {
                int length = (in.readUnsignedByte() << 16) | in.readUnsignedShort();
                int type = in.readUnsignedByte();
                int flags = in.readUnsignedByte();
                int stream = in.readInt() & 0x7fffffff;
                byte[] payload = in.readNBytes(length);
                assertTrue(type != GOAWAY && type != RST_STREAM, "frame of type " + type + " on stream " + stream + ": "
                                                                 + new String(payload, StandardCharsets.ISO_8859_1));
                if (type == HEADERS) // the server's are small: one frame, no padding or priority
                    statuses.put(stream, ((MetaData.Response) responseHeaders.decode(ByteBuffer.wrap(payload))).getStatus());
                if (type == DATA)
                    bodies.computeIfAbsent(stream, s -> new ByteArrayOutputStream()).write(payload);
                if ((type == DATA || type == HEADERS) && (flags & 0x1) != 0)
                    ended.add(stream);
            }
            assertEquals(Map.of(1, 200, 3, 431, 5, 200), statuses);
            String refused = bodies.get(3).toString(StandardCharsets.UTF_8);
            assertTrue(refused.contains("Request header fields too large") && refused.contains("requestHeaderSize"), refused);
        }
    }

    /** A GET whose header block is plain literals (no Huffman, no indexing), split into HEADERS and CONTINUATIONs. */
    private static byte[] request(int stream, String path) throws IOException {
        ByteArrayOutputStream block = new ByteArrayOutputStream();
        literal(block, ":method", "GET");
        literal(block, ":scheme", "http");
        literal(block, ":authority", "127.0.0.1");
        literal(block, ":path", path);
        byte[] bytes = block.toByteArray();
        ByteArrayOutputStream frames = new ByteArrayOutputStream();
        for (int offset = 0; offset < bytes.length; offset += 16384) {
            int end = Math.min(bytes.length, offset + 16384);
            boolean last = end == bytes.length;
            byte[] chunk = java.util.Arrays.copyOfRange(bytes, offset, end);
            if (offset == 0)
                frames.write(frame(HEADERS, 0x1 | (last ? 0x4 : 0), stream, chunk)); // END_STREAM [| END_HEADERS]
            else
                frames.write(frame(CONTINUATION, last ? 0x4 : 0, stream, chunk));
        }
        return frames.toByteArray();
    }

    private static void literal(ByteArrayOutputStream out, String name, String value) {
        out.write(0); // literal without indexing, new name
        string(out, name);
        string(out, value);
    }

    private static void string(ByteArrayOutputStream out, String text) {
        byte[] bytes = text.getBytes(StandardCharsets.US_ASCII);
        integer(out, bytes.length, 7);
        out.writeBytes(bytes);
    }

    private static void integer(ByteArrayOutputStream out, int value, int prefixBits) {
        int max = (1 << prefixBits) - 1;
        if (value < max) {
            out.write(value);
            return;
        }
        out.write(max);
        value -= max;
        while (value >= 128) {
            out.write((value & 127) | 128);
            value >>>= 7;
        }
        out.write(value);
    }

    private static byte[] frame(int type, int flags, int stream, byte[] payload) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(payload.length >>> 16);
        out.write(payload.length >>> 8);
        out.write(payload.length);
        out.write(type);
        out.write(flags);
        out.write(stream >>> 24);
        out.write(stream >>> 16);
        out.write(stream >>> 8);
        out.write(stream);
        out.writeBytes(payload);
        return out.toByteArray();
    }

}
