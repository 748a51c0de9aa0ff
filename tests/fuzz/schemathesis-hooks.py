# Loaded by schemathesis (SCHEMATHESIS_HOOKS): the tus PATCH of the resumable upload sends raw bytes as
# application/offset+octet-stream, which schemathesis serializes as it does application/octet-stream.
import schemathesis

schemathesis.serializer.alias("application/offset+octet-stream", "application/octet-stream")
