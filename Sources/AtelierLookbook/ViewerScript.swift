/// The lookbook's 3D viewer (`js/viewer.js`): every `.stage[data-model]` on a page becomes a
/// three.js view of that model, with the GLB taken from `models/<id>.glb.js` (base64, so no
/// request is made: a browser refuses `fetch` from `file://`). The poster stays until the first
/// frame is drawn; drag turns, the wheel or a pinch zooms, and the buttons and the arrow keys (on
/// the focused view) do the same for keyboard users. `page.html#turn=90` opens it turned.
/// Rendering happens only when the view changes, so an idle page costs nothing.
enum ViewerScript {
    /// The lights, shared with the poster (`ModelView.poster`): an ambient light and a light at
    /// the camera, in three.js's units (the sum is the factor on a face seen head-on).
    static let ambient: Float = 0.65
    static let headlight: Float = 0.45

    static var source: String {
        """
        (function () {
          'use strict';
          var AZIMUTH = \(ModelView.azimuth), ELEVATION = \(ModelView.elevation), FOV = \(ModelView.fieldOfView);
          var BACKGROUND = 0x\(String(ModelView.background, radix: 16)), AMBIENT = \(ambient), HEADLIGHT = \(headlight);
          var FRAMING = \(ModelView.framing), STEP = 15;

          function bytes(base64) {
            var text = atob(base64), out = new Uint8Array(text.length);
            for (var i = 0; i < text.length; i++) out[i] = text.charCodeAt(i);
            return out.buffer;
          }

          function webgl() {
            try {
              var canvas = document.createElement('canvas');
              return !!(window.WebGLRenderingContext && (canvas.getContext('webgl') || canvas.getContext('experimental-webgl')));
            } catch (e) { return false; }
          }

          function start(stage) {
            var figure = stage.parentNode;
            var note = figure.querySelector('.model-note');
            function fail(state, text) {
              stage.setAttribute('data-state', state);
              if (note) note.textContent = text;
            }
            var data = (window.atelierModels || {})[stage.getAttribute('data-model')];
            if (!data) return fail('error', 'The model\\u2019s data is missing from the site; the picture is a still.');
            if (!window.THREE || !THREE.GLTFLoader || !THREE.OrbitControls) return fail('error', 'three.js is missing from the site; the picture is a still.');
            if (!webgl()) return fail('no-webgl', 'This browser cannot draw 3D (no WebGL); the picture is a still of the model.');

            var canvas = document.createElement('canvas');
            var renderer = new THREE.WebGLRenderer({ canvas: canvas, antialias: true });
            renderer.gammaOutput = true;
            renderer.gammaFactor = 2.2;
            renderer.setPixelRatio(window.devicePixelRatio || 1);
            renderer.setClearColor(BACKGROUND);
            var scene = new THREE.Scene();
            var camera = new THREE.PerspectiveCamera(FOV, 4 / 3, 0.01, 1000);
            scene.add(new THREE.AmbientLight(0xffffff, AMBIENT));
            var light = new THREE.DirectionalLight(0xffffff, HEADLIGHT);
            scene.add(light);
            scene.add(light.target);
            var controls = new THREE.OrbitControls(camera, canvas);
            controls.enableKeys = false;
            controls.enablePan = false;
            var home = null;

            function fit() {
              var width = stage.clientWidth || 640, height = Math.round(width * 3 / 4);
              renderer.setSize(width, height, false);
              camera.aspect = width / height;
              camera.updateProjectionMatrix();
            }
            function render() {
              light.position.copy(camera.position);
              light.target.position.copy(controls.target);
              renderer.render(scene, camera);
            }
            function turn(degrees) {
              var offset = camera.position.clone().sub(controls.target);
              offset.applyAxisAngle(new THREE.Vector3(0, 1, 0), degrees * Math.PI / 180);
              camera.position.copy(controls.target).add(offset);
              controls.update();
            }
            function tilt(degrees) {
              var offset = camera.position.clone().sub(controls.target);
              var axis = new THREE.Vector3(0, 1, 0).cross(offset).normalize();
              var turned = offset.clone().applyAxisAngle(axis, -degrees * Math.PI / 180);
              // Not over the top or under the bottom (OrbitControls would flip the view).
              if (Math.abs(turned.clone().normalize().y) < 0.98) camera.position.copy(controls.target).add(turned);
              controls.update();
            }
            function zoom(factor) {
              var offset = camera.position.clone().sub(controls.target);
              var length = Math.min(Math.max(offset.length() * factor, controls.minDistance), controls.maxDistance);
              camera.position.copy(controls.target).add(offset.setLength(length));
              controls.update();
            }
            function reset() {
              camera.position.copy(home.position);
              controls.target.copy(home.target);
              controls.update();
            }
            var actions = {
              left: function () { turn(-STEP); }, right: function () { turn(STEP); },
              up: function () { tilt(STEP); }, down: function () { tilt(-STEP); },
              'in': function () { zoom(0.8); }, out: function () { zoom(1.25); }, reset: reset
            };
            var keys = { ArrowLeft: 'left', ArrowRight: 'right', ArrowUp: 'up', ArrowDown: 'down', '+': 'in', '=': 'in', '-': 'out', '0': 'reset', Home: 'reset' };

            new THREE.GLTFLoader().parse(bytes(data), '', function (gltf) {
              scene.add(gltf.scene);
              var box = new THREE.Box3().setFromObject(gltf.scene);
              var centre = box.getCenter(new THREE.Vector3());
              var radius = Math.max(box.getSize(new THREE.Vector3()).length() / 2, 1e-6);
              var a = AZIMUTH * Math.PI / 180, e = ELEVATION * Math.PI / 180;
              var distance = radius / Math.sin(FOV * Math.PI / 360) * FRAMING;
              camera.position.set(centre.x + Math.sin(a) * Math.cos(e) * distance, centre.y + Math.sin(e) * distance,
                                  centre.z + Math.cos(a) * Math.cos(e) * distance);
              camera.near = distance / 100;
              camera.far = distance * 10;
              controls.target.copy(centre);
              controls.minDistance = radius * 0.6;
              controls.maxDistance = distance * 4;
              controls.update();
              home = { position: camera.position.clone(), target: controls.target.clone() };
              stage.insertBefore(canvas, stage.firstChild);
              fit();
              var turned = /(?:^#|&)turn=(-?[0-9]+(?:\\.[0-9]+)?)/.exec(location.hash);
              if (turned) turn(parseFloat(turned[1]));
              render();
              controls.addEventListener('change', render);
              window.addEventListener('resize', function () { fit(); render(); });
              stage.addEventListener('keydown', function (event) {
                var action = actions[keys[event.key]];
                if (!action) return;
                event.preventDefault();
                action();
              });
              Array.prototype.forEach.call(figure.querySelectorAll('button[data-action]'), function (button) {
                button.hidden = false;
                button.addEventListener('click', function () { actions[button.getAttribute('data-action')](); });
              });
              stage.setAttribute('data-state', 'ready');
              if (note) note.textContent = 'Drag to turn the model, scroll or pinch to zoom; on the focused view the arrow keys turn it, + and \\u2212 zoom, 0 goes back.';
            }, function (error) {
              fail('error', 'The model could not be read (' + ((error && error.message) || error) + '); the picture is a still.');
            });
          }

          Array.prototype.forEach.call(document.querySelectorAll('.stage[data-model]'), start);
        })();

        """
    }
}
