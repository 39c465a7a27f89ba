-- A package release withdrawn by its owner or staff (`DELETE .../versions/{version}`):
-- gone from every read (version lists, the npm packument, artifact and tarball downloads
-- answer as for a withdrawn version) until restored. The row stays, so the version number
-- can never be published again with other bytes.
ALTER TABLE package_releases ADD COLUMN withdrawn_at INTEGER;
ALTER TABLE package_releases ADD COLUMN withdrawn_by INTEGER REFERENCES users (id) ON DELETE SET NULL;
