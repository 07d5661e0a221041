//! Cloning a history into another one copies the ring in place: the sample's hand-over
//! from the sampling thread to the main loop allocates nothing.

use super::History;

impl Clone for History {
    fn clone(&self) -> Self {
        History {
            buckets: self.buckets.clone(),
            names: self.names.clone(),
            latest: self.latest,
            since: self.since,
            utc_offset_s: self.utc_offset_s,
        }
    }

    fn clone_from(&mut self, source: &Self) {
        // Box::clone_from copies into the existing allocation.
        self.buckets.clone_from(&source.buckets);
        self.names.clone_from(&source.names);
        self.latest = source.latest;
        self.since = source.since;
        self.utc_offset_s = source.utc_offset_s;
    }
}
