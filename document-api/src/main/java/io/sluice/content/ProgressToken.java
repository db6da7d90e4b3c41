package io.sluice.content;

import io.sluice.document.Slice;

import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Objects;
import java.util.zip.CRC32;

/**
 * Where a visit stands: every entry before {@link #position()} in {@linkplain DocumentKey visiting order} has been
 * handed out, nothing after it has. A visit resumed from a token returns exactly what the original visit had not yet
 * returned (modulo writes that happen in between).
 *
 * <p>The token is bound to the slice, bucket space and distribution bits of the visit that made it; {@link
 * #checkUsableFor} rejects it anywhere else. Its {@linkplain #encoded() string form} is opaque to clients: URL-safe
 * base64 (with padding) of a versioned binary record ending in a CRC-32, so {@link #parse} detects corruption and
 * forgery by accident with a typed exception rather than resuming from a wrong place.
 */
public final class ProgressToken {

    // Version 2: slices are contiguous runs of superbuckets (Slice). Version 1 tokens are read too; where a version 1
    // token of several slices was made with round-robin slices, see fromRoundRobinSlices.
    private static final byte VERSION = 2;
    private static final byte ROUND_ROBIN_SLICES_VERSION = 1;
    private static final int FIXED_BYTES = 1 + 1 + 1 + 4 + 4 + 8 + 4;
    private static final int CHECKSUM_BYTES = 4;
    private static final int SHOWN_TOKEN_CHARS = 40;

    private final int distributionBits;
    private final Slice slice;
    private final BucketSpace bucketSpace;
    private final DocumentKey position;
    private final boolean roundRobinSlices;

    private ProgressToken(int distributionBits, Slice slice, BucketSpace bucketSpace, DocumentKey position) {
        this(distributionBits, slice, bucketSpace, position, false);
    }

    private ProgressToken(int distributionBits, Slice slice, BucketSpace bucketSpace, DocumentKey position,
                          boolean roundRobinSlices) {
        if (distributionBits < 1 || distributionBits > 32) {
            throw new IllegalArgumentException("Distribution bits must be in [1, 32], but was " + distributionBits);
        }
        this.distributionBits = distributionBits;
        this.slice = Objects.requireNonNull(slice, "slice");
        this.bucketSpace = Objects.requireNonNull(bucketSpace, "bucketSpace");
        this.position = Objects.requireNonNull(position, "position");
        this.roundRobinSlices = roundRobinSlices;
    }

    /** A token for a visit of {@code slice} of {@code space}, under {@code distributionBits}, standing at {@code position}. */
    public static ProgressToken of(int distributionBits, Slice slice, BucketSpace space, DocumentKey position) {
        return new ProgressToken(distributionBits, slice, space, position);
    }

    /**
     * Reads a token from its string form; standard base64 (with {@code +} and {@code /}) is accepted too.
     *
     * @throws InvalidProgressTokenException if {@code token} is not a well-formed, intact token of a known version
     */
    public static ProgressToken parse(String token) {
        byte[] bytes = decodeBase64(token);
        if (bytes.length < FIXED_BYTES + CHECKSUM_BYTES) {
            throw invalid(token, "too short");
        }
        ByteBuffer buffer = ByteBuffer.wrap(bytes);
        CRC32 crc = new CRC32();
        crc.update(bytes, 0, bytes.length - CHECKSUM_BYTES);
        if ((int) crc.getValue() != buffer.getInt(bytes.length - CHECKSUM_BYTES)) {
            throw invalid(token, "checksum mismatch");
        }
        byte version = buffer.get();
        if (version != VERSION && version != ROUND_ROBIN_SLICES_VERSION) {
            throw invalid(token, "unknown version " + version);
        }
        try {
            int space = buffer.get();
            int distributionBits = buffer.get();
            int slices = buffer.getInt();
            int sliceId = buffer.getInt();
            long orderKey = buffer.getLong();
            int idLength = buffer.getInt();
            if (idLength < 0 || idLength != buffer.remaining() - CHECKSUM_BYTES) {
                throw invalid(token, "bad id length " + idLength);
            }
            if (space < 0 || space >= BucketSpace.values().length) {
                throw invalid(token, "unknown bucket space " + space);
            }
            byte[] id = new byte[idLength];
            buffer.get(id);
            DocumentKey position = new DocumentKey(orderKey, utf8(id, token));
            return new ProgressToken(distributionBits, new Slice(slices, sliceId), BucketSpace.values()[space],
                                     position, version == ROUND_ROBIN_SLICES_VERSION && slices > 1);
        } catch (IllegalArgumentException | BufferUnderflowException e) {
            if (e instanceof InvalidProgressTokenException) {
                throw e;
            }
            throw invalid(token, e.getMessage());
        }
    }

    private static byte[] decodeBase64(String token) {
        try {
            return Base64.getUrlDecoder().decode(token);
        } catch (IllegalArgumentException urlSafeFailed) {
            try {
                return Base64.getDecoder().decode(token);
            } catch (IllegalArgumentException e) {
                throw invalid(token, "not base64");
            }
        }
    }

    private static String utf8(byte[] bytes, String token) {
        try {
            return StandardCharsets.UTF_8.newDecoder()
                                         .onMalformedInput(CodingErrorAction.REPORT)
                                         .onUnmappableCharacter(CodingErrorAction.REPORT)
                                         .decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            throw invalid(token, "document id is not UTF-8");
        }
    }

    private static InvalidProgressTokenException invalid(String token, String reason) {
        String shown = token.length() > SHOWN_TOKEN_CHARS ? token.substring(0, SHOWN_TOKEN_CHARS) + "..." : token;
        return new InvalidProgressTokenException("Invalid continuation token '" + shown + "': " + reason);
    }

    /**
     * Checks that a visit of {@code slice} of {@code space} under {@code distributionBits} may resume from this token.
     *
     * @throws InvalidProgressTokenException naming the mismatch otherwise
     */
    public void checkUsableFor(Slice slice, BucketSpace space, int distributionBits) {
        if (!this.slice.equals(slice)) {
            throw new InvalidProgressTokenException("Continuation token is for slice " + this.slice.sliceId() + " of "
                                                    + this.slice.slices() + ", not slice " + slice.sliceId() + " of "
                                                    + slice.slices());
        }
        if (bucketSpace != space) {
            throw new InvalidProgressTokenException("Continuation token is for bucket space '"
                                                    + bucketSpace.wireName() + "', not '" + space.wireName() + "'");
        }
        if (this.distributionBits != distributionBits) {
            throw new InvalidProgressTokenException("Continuation token is for " + this.distributionBits
                                                    + " distribution bits, but the store uses " + distributionBits);
        }
    }

    /** The string form: URL-safe base64 with padding. */
    public String encoded() {
        byte[] id = position.id().getBytes(StandardCharsets.UTF_8);
        ByteBuffer buffer = ByteBuffer.allocate(FIXED_BYTES + id.length + CHECKSUM_BYTES);
        buffer.put(VERSION)
              .put((byte) bucketSpace.ordinal())
              .put((byte) distributionBits)
              .putInt(slice.slices())
              .putInt(slice.sliceId())
              .putLong(position.orderKey())
              .putInt(id.length)
              .put(id);
        CRC32 crc = new CRC32();
        crc.update(buffer.array(), 0, buffer.position());
        buffer.putInt((int) crc.getValue());
        return Base64.getUrlEncoder().encodeToString(buffer.array());
    }

    public int distributionBits() {
        return distributionBits;
    }

    public Slice slice() {
        return slice;
    }

    public BucketSpace bucketSpace() {
        return bucketSpace;
    }

    /**
     * Whether this token was made by an older Sluice (token version 1) for one of several slices, when slices dealt
     * out superbuckets round-robin. Engines that split slices into contiguous runs of superbuckets cannot resume from
     * it without skipping and repeating documents; an engine whose split did not change (one splitting a hash ring)
     * can.
     */
    public boolean fromRoundRobinSlices() {
        return roundRobinSlices;
    }

    /** Everything before this key has been visited; nothing at or after it has. */
    public DocumentKey position() {
        return position;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof ProgressToken)) {
            return false;
        }
        ProgressToken other = (ProgressToken) o;
        return distributionBits == other.distributionBits && slice.equals(other.slice)
               && bucketSpace == other.bucketSpace && position.equals(other.position);
    }

    @Override
    public int hashCode() {
        return Objects.hash(distributionBits, slice, bucketSpace, position);
    }

    /** The {@linkplain #encoded() string form}. */
    @Override
    public String toString() {
        return encoded();
    }

}
