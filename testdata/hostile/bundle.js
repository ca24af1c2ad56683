function a(){return 1}
//# sourceMappingURL=bundle.js.map
