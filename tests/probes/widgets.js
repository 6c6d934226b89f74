// The widgets (docs/javascripts/widgets.js) as a reader sees and sets them; chapter 10's timeline.
// The browser's visits (tests/browsing.py) call each as attnlitProbes.<name>.
(probes => {

// A widget's drawing: each text that reaches past its edges (by more than a pixel), cut off
// there. A translation's words are longer than the English ones the layout was made for.
probes.clipped = svg => {
    const edge = svg.getBoundingClientRect();
    return [...svg.querySelectorAll("text")].filter(text => {
        const box = text.getBoundingClientRect();
        return box.left < edge.left - 1 || box.right > edge.right + 1 || box.top < edge.top - 1 || box.bottom > edge.bottom + 1;
    }).map(text => text.textContent);
};

// A widget (docs/javascripts/widgets.js) as the reader sees it: what it says, its numbers, its
// drawing, the texts its drawing cuts off; its controls and the values they show.
probes.widget = figure => ({
    status: figure.querySelector(".attnlit-status").textContent,
    numbers: figure.querySelector(".attnlit-numbers").textContent,
    drawing: figure.querySelector("svg.attnlit-drawing").innerHTML,
    clipped: probes.clipped(figure.querySelector("svg.attnlit-drawing")),
    state: Object.fromEntries([
        ...[...figure.querySelectorAll("input[type=range]")]
            .map(input => [input.labels[0].textContent, input.shown[input.value]]),
        ...[...figure.querySelectorAll("fieldset")].map(set => [set.querySelector("legend").textContent,
            set.querySelector("input:checked").parentElement.textContent.trim()]),
    ]),
});

// Sets controls by label to values as shown, as a reader would leave them; returns the widget.
probes.setState = ([figure, state]) => {
    for (const [label, value] of Object.entries(state)) {
        const slider = [...figure.querySelectorAll("input[type=range]")]
            .find(input => input.labels[0].textContent === label);
        if (slider) {
            if (!slider.shown.includes(value)) throw new Error(`${label} cannot show ${value}`);
            slider.value = slider.shown.indexOf(value);
            slider.dispatchEvent(new Event("input", { bubbles: true }));
            continue;
        }
        const set = [...figure.querySelectorAll("fieldset")]
            .find(set => set.querySelector("legend").textContent === label);
        const radio = [...set.querySelectorAll("label")]
            .find(option => option.textContent.trim() === value).querySelector("input");
        radio.checked = true;
        radio.dispatchEvent(new Event("change", { bubbles: true }));
    }
    return probes.widget(figure);
};

// The timeline as the reader sees it: its moments' buttons, the play button's words (the one
// shown), the step, whether its status is busy (playing: read out once, where it stops).
probes.timelineState = figure => ({
    moments: [...figure.querySelectorAll(".attnlit-marks button")].map(button => button.textContent),
    play: [...figure.querySelectorAll(".attnlit-play span")].filter(span => !span.hidden && getComputedStyle(span).visibility !== "hidden")
        .map(span => span.textContent),
    step: figure.querySelector("output").textContent,
    busy: figure.querySelector(".attnlit-status").hasAttribute("aria-busy"),
    status: figure.querySelector(".attnlit-status").textContent,
});

// Every step the timeline shows from now on, in order, each as the reader saw it then (its
// state read when the step changed, not after a round trip: playing moves on by itself).
probes.watchSteps = figure => {
    const out = figure.querySelector("output"), steps = window.attnlitSteps = [];
    new MutationObserver(() => steps.push(probes.timelineState(figure)))
        .observe(out, { childList: true, characterData: true, subtree: true });
};

// On a phone, with the slider at the top of the screen, under Material's header: the heads' top
// and bottom, and the screen's height.
probes.headsInView = figure => {
    const controls = figure.querySelector(".attnlit-controls"), header = document.querySelector(".md-header");
    window.scrollBy(0, controls.getBoundingClientRect().top - header.getBoundingClientRect().bottom);
    const heads = figure.querySelector("svg.attnlit-drawing [data-part=heads]").getBoundingClientRect();
    return { top: heads.top, bottom: heads.bottom, controls: controls.getBoundingClientRect().top, screen: innerHeight };
};

})(globalThis.attnlitProbes ??= {});
