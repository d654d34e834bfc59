import { boot } from '../boot.tsx'
import { ResizeTool } from '../tools/resize.tsx'

boot(() => <ResizeTool />)
