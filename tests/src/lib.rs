//! Support code for the integration tests (placeholder).
