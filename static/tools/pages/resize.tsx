import { boot } from '../../kit/boot.tsx'
import { ResizeTool } from '../tools/resize.tsx'

boot(() => <ResizeTool />)
