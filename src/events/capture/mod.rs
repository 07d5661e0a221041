//! Cameras and screen shares in use, from PipeWire's graph: a video source node linked
//! to a running video stream of a program. A source made by a device monitor (it has
//! `device.api`: `v4l2`, `libcamera`) is a camera; one a program makes (a screen-cast
//! portal, a compositor) is a screen share. The video plugin follows the graph over
//! PipeWire's own protocol (`video/src/capture.rs`); the graph and what it means are core.

#[cfg(test)]
mod tests;

use rustc_hash::FxHashMap;
use serde::{Deserialize, Serialize};

/// What is being captured.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum CaptureKind {
    Camera,
    Screen,
}

/// A program capturing video.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Capture {
    pub kind: CaptureKind,
    /// The stream's `application.name` (`Firefox`), else its node's name.
    pub app: String,
    /// `application.process.id`, where the client said.
    pub pid: Option<u32>,
    /// The source's description (`Integrated Camera`, `xdpw`), else its name.
    pub source: String,
}

/// What the `privacy` module shows besides the microphone.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CaptureState {
    /// Each capture once, in the order of the links that carry them.
    pub captures: Vec<Capture>,
}

/// A node's properties as PipeWire gives them, by key.
pub trait Props {
    fn get(&self, key: &str) -> Option<&str>;
}

/// What a video node is, from its properties.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum VideoNode {
    /// `Video/Source`: a camera when a device monitor made it.
    Source { device: bool, name: String },
    /// `Stream/Input/Video`: a program reading video; running or not is its state,
    /// which only its info tells.
    Stream {
        app: String,
        pid: Option<u32>,
        running: bool,
    },
}

impl VideoNode {
    /// The node a global's properties describe, if it is a video source or stream.
    pub fn of(props: &dyn Props) -> Option<VideoNode> {
        let name = || {
            ["node.description", "node.nick", "node.name"]
                .iter()
                .find_map(|key| props.get(key).filter(|v| !v.is_empty()))
                .unwrap_or("?")
                .to_owned()
        };
        match props.get("media.class")? {
            "Video/Source" => Some(VideoNode::Source {
                device: props.get("device.api").is_some_and(|api| !api.is_empty()),
                name: name(),
            }),
            "Stream/Input/Video" => Some(VideoNode::Stream {
                app: props
                    .get("application.name")
                    .filter(|v| !v.is_empty())
                    .map_or_else(name, str::to_owned),
                pid: props
                    .get("application.process.id")
                    .and_then(|pid| pid.parse().ok()),
                running: false,
            }),
            _ => None,
        }
    }
}

/// The video part of PipeWire's graph: its video nodes and the links between them.
#[derive(Debug, Default)]
pub struct Graph {
    nodes: FxHashMap<u32, VideoNode>,
    /// Link id → (output node, input node).
    links: FxHashMap<u32, (u32, u32)>,
}

impl Graph {
    /// A node's properties, new or changed; a stream keeps its running state.
    pub fn add_node(&mut self, id: u32, mut node: VideoNode) {
        if let (Some(VideoNode::Stream { running: was, .. }), VideoNode::Stream { running, .. }) =
            (self.nodes.get(&id), &mut node)
        {
            *running = *was;
        }
        self.nodes.insert(id, node);
    }

    /// A link global's ends (`link.output.node`, `link.input.node`).
    pub fn add_link(&mut self, id: u32, props: &dyn Props) {
        let end = |key| props.get(key).and_then(|v| v.parse::<u32>().ok());
        if let (Some(output), Some(input)) = (end("link.output.node"), end("link.input.node")) {
            self.links.insert(id, (output, input));
        }
    }

    /// A stream's state changed; whether that changed anything.
    pub fn set_running(&mut self, id: u32, now: bool) -> bool {
        match self.nodes.get_mut(&id) {
            Some(VideoNode::Stream { running, .. }) if *running != now => {
                *running = now;
                true
            }
            _ => false,
        }
    }

    /// A global went away (a node or a link); whether it was one of the graph's.
    pub fn remove(&mut self, id: u32) -> bool {
        self.nodes.remove(&id).is_some() | self.links.remove(&id).is_some()
    }

    pub fn is_stream(&self, id: u32) -> bool {
        matches!(self.nodes.get(&id), Some(VideoNode::Stream { .. }))
    }

    /// The captures now: each link from a video source to a running stream that is not
    /// the process `own_pid`'s.
    pub fn state(&self, own_pid: u32) -> CaptureState {
        let mut links: Vec<(&u32, &(u32, u32))> = self.links.iter().collect();
        links.sort_unstable_by_key(|(id, _)| **id);
        let mut captures: Vec<Capture> = Vec::new();
        for (_, (output, input)) in links {
            let (
                Some(VideoNode::Source { device, name }),
                Some(VideoNode::Stream {
                    app,
                    pid,
                    running: true,
                }),
            ) = (self.nodes.get(output), self.nodes.get(input))
            else {
                continue;
            };
            if *pid == Some(own_pid) {
                continue;
            }
            let capture = Capture {
                kind: match device {
                    true => CaptureKind::Camera,
                    false => CaptureKind::Screen,
                },
                app: app.clone(),
                pid: *pid,
                source: name.clone(),
            };
            if !captures.contains(&capture) {
                captures.push(capture);
            }
        }
        CaptureState { captures }
    }
}

impl super::EventState for CaptureState {
    const KEY: &'static str = "Capture";
    type Command = std::convert::Infallible;
    type Settings = ();
    #[cfg(feature = "app")]
    type Watch = crate::events::plugin::PluginWatch<Self>;
}

impl crate::events::plugin::PluginSource for CaptureState {
    const PLUGIN: &'static str = crate::events::plugin::VIDEO_FILE;
}
