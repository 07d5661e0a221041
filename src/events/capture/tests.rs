use std::collections::HashMap;

use super::*;

struct Map(HashMap<&'static str, &'static str>);

impl Props for Map {
    fn get(&self, key: &str) -> Option<&str> {
        self.0.get(key).copied()
    }
}

fn props(pairs: &[(&'static str, &'static str)]) -> Map {
    Map(pairs.iter().copied().collect())
}

fn node(pairs: &[(&'static str, &'static str)]) -> VideoNode {
    VideoNode::of(&props(pairs)).expect("a video node")
}

fn link(graph: &mut Graph, id: u32, output: &'static str, input: &'static str) {
    graph.add_link(
        id,
        &props(&[("link.output.node", output), ("link.input.node", input)]),
    );
}

/// A camera (made by the v4l2 monitor), a screen-cast portal's source, and streams.
fn graph() -> Graph {
    let mut graph = Graph::default();
    let camera = [
        ("media.class", "Video/Source"),
        ("device.api", "v4l2"),
        ("node.description", "Integrated Camera"),
        ("node.name", "v4l2_input.pci"),
    ];
    graph.add_node(30, node(&camera));
    let portal = [
        ("media.class", "Video/Source"),
        ("node.name", "xdpw_stream"),
    ];
    graph.add_node(31, node(&portal));
    let browser = [
        ("media.class", "Stream/Input/Video"),
        ("application.name", "Firefox"),
        ("application.process.id", "4242"),
    ];
    graph.add_node(40, node(&browser));
    let obs = [("media.class", "Stream/Input/Video"), ("node.name", "obs")];
    graph.add_node(41, node(&obs));
    link(&mut graph, 50, "30", "40");
    link(&mut graph, 51, "31", "41");
    graph
}

#[test]
fn only_running_streams_linked_to_a_source_capture() {
    let mut graph = graph();
    assert_eq!(graph.state(1).captures, [], "nothing runs yet");
    assert!(graph.set_running(40, true) && !graph.set_running(40, true));
    assert!(graph.set_running(41, true));
    assert!(
        !graph.set_running(30, true),
        "a source has no running of its own"
    );
    let captures = graph.state(1).captures;
    assert_eq!(
        captures,
        [
            Capture {
                kind: CaptureKind::Camera,
                app: "Firefox".into(),
                pid: Some(4242),
                source: "Integrated Camera".into(),
            },
            Capture {
                kind: CaptureKind::Screen,
                app: "obs".into(),
                pid: None,
                source: "xdpw_stream".into(),
            },
        ]
    );
    // Paused, it captures nothing.
    assert!(graph.set_running(40, false));
    assert_eq!(graph.state(1).captures.len(), 1);
}

#[test]
fn removals_links_and_own_streams() {
    let mut graph = graph();
    graph.set_running(40, true);
    graph.set_running(41, true);
    // ringbar's own stream is never shown.
    assert_eq!(graph.state(4242).captures.len(), 1);
    // The link goes: the stream captures nothing; the node goes: nor does its link.
    assert!(graph.remove(51));
    assert_eq!(graph.state(1).captures.len(), 1);
    assert!(graph.remove(30) && !graph.remove(30));
    assert_eq!(graph.state(1).captures, []);
    // A second link between the same two nodes (another port) is one capture.
    link(&mut graph, 52, "31", "41");
    link(&mut graph, 53, "31", "41");
    assert_eq!(graph.state(1).captures.len(), 1);
    assert!(graph.is_stream(41) && !graph.is_stream(31));
}

#[test]
fn nodes_of_other_kinds_and_broken_props_are_not_video() {
    assert_eq!(
        VideoNode::of(&props(&[("media.class", "Audio/Source")])),
        None
    );
    assert_eq!(VideoNode::of(&props(&[("node.name", "x")])), None);
    let stream = node(&[
        ("media.class", "Stream/Input/Video"),
        ("application.process.id", "not a pid"),
    ]);
    assert_eq!(
        stream,
        VideoNode::Stream {
            app: "?".into(),
            pid: None,
            running: false
        }
    );
    let mut graph = Graph::default();
    link(&mut graph, 1, "x", "2");
    assert!(!graph.remove(1), "a link without two node ids is not kept");
}
